import { type FetchedPayment, type ProviderApi, type ProviderApiCredentials, ProviderApiError } from '../../core/provider-api';
import { toMinorUnits } from '../../core/money';
import { type JsonObject, joinName, listAt, text } from '../../webhooks/json-payload';
import { baseUrlOf, getJson } from './http';

/**
 * Recurly's v3 API (https://recurly.com/developers/api/v2021-02-25/index.html#operation/get_transaction),
 * with the merchant's private API key as the Basic-auth user (empty password) and the API version
 * in `Accept: application/vnd.recurly.v2021-02-25`.
 *
 * `GET /transactions/{transaction_id}`: the thin webhooks name the transaction `uuid-<uuid>`.
 * Answer: `{ id, uuid, type (purchase, refund, verify …), status (success, declined, error,
 * chargeback, void, pending, processing, scheduled), status_code (Recurly's error code, e.g.
 * insufficient_funds), gateway_response_code, amount (major-unit number), currency,
 * account { id, code, email, first_name, last_name, company }, invoice { id, number },
 * subscription_ids[] }`.
 *
 * Status: declined, error → failed (decline code `status_code`, else `gateway_response_code`);
 * success → refunded for a `refund` transaction, else succeeded; anything else → other. The
 * payment id is the transaction's `uuid` (what the webhooks carry), the customer id the account
 * `code` (the webhooks' `account_code`), the subscription the first of `subscription_ids`.
 */
const PROVIDER = 'recurly';
export const RECURLY_API_ACCEPT = 'application/vnd.recurly.v2021-02-25';

function headers(credentials: ProviderApiCredentials): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${credentials.apiKey}:`).toString('base64')}`, accept: RECURLY_API_ACCEPT };
}

function statusOf(transaction: JsonObject): FetchedPayment['status'] {
  const status = text(transaction, 'status');
  if (status === 'declined' || status === 'error') return 'failed';
  if (status !== 'success') return 'other';
  return text(transaction, 'type') === 'refund' ? 'refunded' : 'succeeded';
}

async function fetchPayment(credentials: ProviderApiCredentials, id: string): Promise<FetchedPayment> {
  const base = baseUrlOf('RECURLY_API_BASE_URL');
  const transaction = await getJson(PROVIDER, `${base}/transactions/${encodeURIComponent(id)}`, headers(credentials));
  const currency = text(transaction, 'currency');
  if (currency === undefined || !/^[A-Za-z]{3}$/.test(currency)) throw new ProviderApiError(PROVIDER, 'bad_response', 'transaction currency is not a currency code');
  const major = transaction['amount'];
  if (typeof major !== 'number' || !Number.isFinite(major) || major < 0) throw new ProviderApiError(PROVIDER, 'bad_response', 'transaction has no amount');
  let amount: number;
  try {
    amount = toMinorUnits(major, currency.toLowerCase());
  } catch (error) {
    throw new ProviderApiError(PROVIDER, 'bad_response', 'transaction amount is not an amount', { cause: error });
  }
  const status = statusOf(transaction);
  const [subscriptionId] = listAt(transaction, 'subscription_ids');
  return {
    status,
    providerPaymentId: text(transaction, 'uuid') ?? text(transaction, 'id') ?? id,
    amount,
    currency: currency.toLowerCase(),
    declineCode: status === 'failed' ? (text(transaction, 'status_code') ?? text(transaction, 'gateway_response_code')) : undefined,
    customer: {
      email: text(transaction, 'account.email'),
      name: joinName(text(transaction, 'account.first_name'), text(transaction, 'account.last_name')) ?? text(transaction, 'account.company'),
      providerCustomerId: text(transaction, 'account.code') ?? text(transaction, 'account.id'),
    },
    subscriptionId: text(subscriptionId),
    invoiceId: text(transaction, 'invoice.id') ?? text(transaction, 'invoice.number'),
  };
}

export const recurlyApi: ProviderApi = { fetchPayment };
