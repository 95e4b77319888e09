import { type FetchedPayment, type ProviderApi, type ProviderApiCredentials, ProviderApiError } from '../../core/provider-api';
import { toMinorUnits } from '../../core/money';
import { type JsonObject, joinName, listAt, objectAt, text } from '../../webhooks/json-payload';
import { baseUrlOf, postJson } from './http';

/**
 * Authorize.Net's JSON API (https://developer.authorize.net/api/reference/index.html#transaction-reporting-get-transaction-details):
 * every call is a POST to `/xml/v1/request.api`; the credentials travel in the body.
 *
 * **Credential**: the merchant's stored API key (`providers set-api-key authorize_net`) is
 * `<apiLoginId>:<transactionKey>` (Account > Settings > API Credentials & Keys), split at the
 * first colon into `merchantAuthentication { name, transactionKey }`. A key without a colon is
 * refused before any call (`unauthorized`, so the event ends in the DLQ until the key is fixed).
 *
 * `getTransactionDetailsRequest { merchantAuthentication, transId }` → `{ transaction: { transId,
 * transactionType, responseCode, responseReasonCode, authAmount, settleAmount (major-unit
 * numbers), customer { id, email }, billTo { firstName, lastName }, profile { customerProfileId },
 * subscription { id }, order { invoiceNumber } }, messages { resultCode, message[] { code, text } } }`.
 * The answer is HTTP 200 even for errors, which are `resultCode: "Error"` with a code: E00007 and
 * E00011 (credential refused or not allowed the Transaction Details API) → unauthorized; E00040
 * (no such record) → not_found; E00001 (processing error, try again) → unavailable; any other →
 * bad_response. Authorize.Net puts a byte order mark before its JSON (postJson drops it).
 *
 * **Currency**: the documented transaction carries none; Authorize.Net settles in the merchant
 * account's currency. A `currencyCode` on the transaction is used when present, else `usd`. Every
 * currency Authorize.Net settles in has two decimals, so the minor units are right either way.
 *
 * Status: responseCode 2 (declined) or 3 (error) → failed, with `responseReasonCode` as decline
 * code; 1 (approved) → refunded for a `refundTransaction`, else succeeded; 4 (held for review) →
 * other. Amount: `authAmount`, else `settleAmount`. Customer id: the CIM profile id (as on the
 * subscription webhooks), else the merchant-assigned `customer.id`.
 */
const PROVIDER = 'authorize_net';
const DEFAULT_CURRENCY = 'usd';

function merchantAuthentication(credentials: ProviderApiCredentials): { name: string; transactionKey: string } {
  const separator = credentials.apiKey.indexOf(':');
  const name = separator < 0 ? '' : credentials.apiKey.slice(0, separator).trim();
  const transactionKey = separator < 0 ? '' : credentials.apiKey.slice(separator + 1).trim();
  if (name === '' || transactionKey === '') throw new ProviderApiError(PROVIDER, 'unauthorized', 'the stored API key is not "apiLoginId:transactionKey"');
  return { name, transactionKey };
}

function failIfError(body: JsonObject): void {
  if (text(body, 'messages.resultCode') !== 'Error') return;
  const [first] = listAt(body, 'messages.message');
  const code = text(first, 'code') ?? 'unknown';
  if (code === 'E00007' || code === 'E00011') throw new ProviderApiError(PROVIDER, 'unauthorized', `answered error ${code} (the merchant's API credentials were refused)`);
  if (code === 'E00040') throw new ProviderApiError(PROVIDER, 'not_found', `answered error ${code} (no such transaction)`);
  if (code === 'E00001') throw new ProviderApiError(PROVIDER, 'unavailable', `answered error ${code}`);
  throw new ProviderApiError(PROVIDER, 'bad_response', `answered error ${code}`);
}

function statusOf(transaction: JsonObject): FetchedPayment['status'] {
  const responseCode = text(transaction, 'responseCode');
  if (responseCode === '2' || responseCode === '3') return 'failed';
  if (responseCode !== '1') return 'other';
  return text(transaction, 'transactionType') === 'refundTransaction' ? 'refunded' : 'succeeded';
}

function currencyOf(transaction: JsonObject): string {
  const code = text(transaction, 'currencyCode');
  if (code === undefined) return DEFAULT_CURRENCY;
  if (!/^[A-Za-z]{3}$/.test(code)) throw new ProviderApiError(PROVIDER, 'bad_response', 'transaction currencyCode is not a currency code');
  return code.toLowerCase();
}

function amountOf(transaction: JsonObject, currency: string): number {
  const major = transaction['authAmount'] ?? transaction['settleAmount'];
  if ((typeof major !== 'number' && typeof major !== 'string') || (typeof major === 'number' && (!Number.isFinite(major) || major < 0))) {
    throw new ProviderApiError(PROVIDER, 'bad_response', 'transaction has no amount');
  }
  try {
    return toMinorUnits(major, currency);
  } catch (error) {
    throw new ProviderApiError(PROVIDER, 'bad_response', 'transaction amount is not an amount', { cause: error });
  }
}

async function fetchPayment(credentials: ProviderApiCredentials, id: string): Promise<FetchedPayment> {
  const auth = merchantAuthentication(credentials);
  const body = await postJson(PROVIDER, `${baseUrlOf('AUTHORIZE_NET_API_BASE_URL')}/xml/v1/request.api`, { getTransactionDetailsRequest: { merchantAuthentication: auth, transId: id } });
  failIfError(body);
  const transaction = objectAt(body, 'transaction');
  if (transaction === undefined) throw new ProviderApiError(PROVIDER, 'bad_response', 'answer has no "transaction" object');
  const status = statusOf(transaction);
  const currency = currencyOf(transaction);
  return {
    status,
    providerPaymentId: text(transaction, 'transId') ?? id,
    amount: amountOf(transaction, currency),
    currency,
    declineCode: status === 'failed' ? text(transaction, 'responseReasonCode') : undefined,
    customer: {
      email: text(transaction, 'customer.email'),
      name: joinName(text(transaction, 'billTo.firstName'), text(transaction, 'billTo.lastName')) ?? text(transaction, 'billTo.company'),
      providerCustomerId: text(transaction, 'profile.customerProfileId') ?? text(transaction, 'customer.id'),
    },
    subscriptionId: text(transaction, 'subscription.id'),
    invoiceId: text(transaction, 'order.invoiceNumber'),
  };
}

export const authorizeNetApi: ProviderApi = { fetchPayment };
