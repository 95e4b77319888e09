import {
  type FetchedCustomer,
  type FetchedOwner,
  type FetchedPayment,
  type FetchedResource,
  fetchingResources,
  type ProviderApi,
  type ProviderApiCredentials,
  ProviderApiError,
  type ProviderCustomerFetcher,
} from '#core/provider-api';
import { toMinorUnits } from '#core/money';
import { type JsonObject, joinName, listAt, text } from '#webhooks/json-payload';
import { baseUrlOf, getJson } from './http';

/**
 * Recurly's v3 API (https://recurly.com/developers/api/v2021-02-25/index.html), with the
 * merchant's private API key as the Basic-auth user (empty password) and the API version in
 * `Accept: application/vnd.recurly.v2021-02-25`. Recurly takes an object's id, or a prefixed
 * alternative key: `uuid-<uuid>` for transactions and subscriptions, `code-<account code>` for
 * accounts (what the thin webhooks carry).
 *
 * Resources, by the names functions/webhooks/recurly.ts gives them:
 * - `transaction` (#operation/get_transaction): `GET /transactions/{id}` → `{ id, uuid, type
 *   (purchase, refund, verify …), status (success, declined, error, chargeback, void, pending,
 *   processing, scheduled), status_code (Recurly's error code, e.g. insufficient_funds),
 *   gateway_response_code, amount (major-unit number), currency, account { id, code, email,
 *   first_name, last_name, company }, invoice { id, number }, subscription_ids[] }`. Status:
 *   declined, error → failed (decline code `status_code`, else `gateway_response_code`); success →
 *   refunded for a `refund` transaction, else succeeded; anything else → other. The payment id is
 *   the transaction's `uuid` (what the webhooks carry), the subscription the first of
 *   `subscription_ids`.
 * - `subscription` (#operation/get_subscription): `GET /subscriptions/{id}` → `{ id, uuid, state
 *   (active, canceled, expired, failed, future, paused), account { code, email, … } }`; canceled,
 *   expired and failed are ended. The subscription id is its `id`, as transactions'
 *   `subscription_ids` name it (recoveries are filed under those), not the webhook's uuid.
 * - `account` (#operation/get_account): `GET /accounts/{id}` → `{ id, code, email, first_name,
 *   last_name, company }`: the account whose billing info changed. fetchCustomer reads the same
 *   call for the account code (`code-<code>`).
 * The customer id is always the account `code` (the webhooks' `account_code`).
 */
const PROVIDER = 'recurly';
export const RECURLY_API_ACCEPT = 'application/vnd.recurly.v2021-02-25';

function headers(credentials: ProviderApiCredentials): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${credentials.apiKey}:`).toString('base64')}`, accept: RECURLY_API_ACCEPT };
}

const getRecurly = (credentials: ProviderApiCredentials, collection: 'transactions' | 'subscriptions' | 'accounts', id: string): Promise<JsonObject> =>
  getJson(PROVIDER, `${baseUrlOf('RECURLY_API_BASE_URL')}/${collection}/${encodeURIComponent(id)}`, headers(credentials));

/** An account (or the `account_mini` a transaction or subscription embeds) as the customer. */
function ownerOf(account: unknown): FetchedOwner {
  return {
    email: text(account, 'email'),
    name: joinName(text(account, 'first_name'), text(account, 'last_name')) ?? text(account, 'company'),
    providerCustomerId: text(account, 'code') ?? text(account, 'id'),
  };
}

function statusOf(transaction: JsonObject): FetchedPayment['status'] {
  const status = text(transaction, 'status');
  if (status === 'declined' || status === 'error') return 'failed';
  if (status !== 'success') return 'other';
  return text(transaction, 'type') === 'refund' ? 'refunded' : 'succeeded';
}

async function fetchTransaction(credentials: ProviderApiCredentials, id: string): Promise<FetchedResource> {
  const transaction = await getRecurly(credentials, 'transactions', id);
  const currency = text(transaction, 'currency');
  if (currency === undefined || !/^[A-Za-z]{3}$/.test(currency))
    throw new ProviderApiError(PROVIDER, 'bad_response', 'transaction currency is not a currency code');
  const major = transaction.amount;
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
    kind: 'payment',
    payment: {
      status,
      providerPaymentId: text(transaction, 'uuid') ?? text(transaction, 'id') ?? id,
      amount,
      currency: currency.toLowerCase(),
      declineCode: status === 'failed' ? (text(transaction, 'status_code') ?? text(transaction, 'gateway_response_code')) : undefined,
      customer: ownerOf(transaction.account),
      subscriptionId: text(subscriptionId),
      invoiceId: text(transaction, 'invoice.id') ?? text(transaction, 'invoice.number'),
    },
  };
}

const ENDED_SUBSCRIPTION_STATES: ReadonlySet<string> = new Set(['canceled', 'expired', 'failed']);

async function fetchSubscription(credentials: ProviderApiCredentials, id: string): Promise<FetchedResource> {
  const subscription = await getRecurly(credentials, 'subscriptions', id);
  const subscriptionId = text(subscription, 'id');
  if (subscriptionId === undefined) throw new ProviderApiError(PROVIDER, 'bad_response', 'subscription has no id');
  return {
    kind: 'subscription',
    subscription: { subscriptionId, ended: ENDED_SUBSCRIPTION_STATES.has(text(subscription, 'state') ?? ''), customer: ownerOf(subscription.account) },
  };
}

async function fetchAccount(credentials: ProviderApiCredentials, id: string): Promise<FetchedResource> {
  return { kind: 'payment_method', paymentMethod: { customer: ownerOf(await getRecurly(credentials, 'accounts', id)) } };
}

/** `GET /accounts/code-{account code}`: email and name; undefined when the account has no email. */
async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const { email, name } = ownerOf(await getRecurly(credentials, 'accounts', `code-${providerCustomerId}`));
  return email === undefined ? undefined : { email, name };
}

export const recurlyApi: ProviderApi & ProviderCustomerFetcher = {
  ...fetchingResources(PROVIDER, { transaction: fetchTransaction, subscription: fetchSubscription, account: fetchAccount }),
  fetchCustomer,
};
