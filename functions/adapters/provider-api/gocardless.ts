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
import { type JsonObject, joinName, objectAt, text } from '#webhooks/json-payload';
import { baseUrlOf, getJson } from './http';

/**
 * GoCardless's API (https://developer.gocardless.com/api-reference), with the merchant's access
 * token as a Bearer token and the `GoCardless-Version` header every request must carry. Every
 * answer wraps the resource in an envelope named after its collection (`{ payments: {...} }`).
 *
 * Resources, by the names functions/webhooks/gocardless.ts gives them:
 * - `payment`: `GET /payments/{id}` → `{ id, amount (minor units), amount_refunded, currency,
 *   status, links: { mandate, subscription? } }`. Status: failed, charged_back → failed;
 *   confirmed, paid_out → succeeded (refunded when `amount_refunded` is positive); pending_*,
 *   submitted, cancelled, customer_approval_denied → other. A payment carries no failure cause:
 *   the event's `details.cause` is the decline code.
 * - `mandate` (#core-endpoints-mandates): `GET /mandates/{id}` → `{ status, links: { customer,
 *   new_mandate? } }`: the payment method; its customer is the owner.
 * - `subscription` (#core-endpoints-subscriptions): `GET /subscriptions/{id}` → `{ id, amount,
 *   currency, status (pending_customer_approval, customer_approval_denied, active, finished,
 *   cancelled, paused), links: { mandate } }`; cancelled and finished are ended.
 * - `refund` (#core-endpoints-refunds): `GET /refunds/{id}` → `{ amount, currency, links:
 *   { payment, mandate } }`: the refunded payment is `links.payment`.
 * The customer is always behind a mandate: `GET /mandates/{id}` → `links.customer`, then
 * `GET /customers/{id}` (#core-endpoints-customers) → `{ email, given_name, family_name,
 * company_name }`. fetchCustomer reads that last call alone.
 */
const PROVIDER = 'gocardless';
export const GOCARDLESS_VERSION = '2015-07-06';

type Collection = 'payments' | 'mandates' | 'customers' | 'subscriptions' | 'refunds';

function headers(credentials: ProviderApiCredentials): Record<string, string> {
  return { authorization: `Bearer ${credentials.apiKey}`, 'gocardless-version': GOCARDLESS_VERSION };
}

/** `GET /{collection}/{id}`, unwrapped from its envelope. */
async function getResource(credentials: ProviderApiCredentials, collection: Collection, id: string): Promise<JsonObject> {
  const body = await getJson(PROVIDER, `${baseUrlOf('GOCARDLESS_API_BASE_URL')}/${collection}/${encodeURIComponent(id)}`, headers(credentials));
  const resource = objectAt(body, collection);
  if (resource === undefined) throw new ProviderApiError(PROVIDER, 'bad_response', `answer has no "${collection}" object`);
  return resource;
}

function amountOf(resource: JsonObject, what: string): { amount: number; currency: string } {
  const amount = resource.amount;
  const currency = text(resource, 'currency');
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0)
    throw new ProviderApiError(PROVIDER, 'bad_response', `${what} amount is not a whole number of minor units`);
  if (currency === undefined || !/^[A-Za-z]{3}$/.test(currency))
    throw new ProviderApiError(PROVIDER, 'bad_response', `${what} currency is not a currency code`);
  return { amount, currency: currency.toLowerCase() };
}

function customerFields(customer: JsonObject): FetchedCustomer {
  return { email: text(customer, 'email'), name: joinName(text(customer, 'given_name'), text(customer, 'family_name')) ?? text(customer, 'company_name') };
}

/** The customer with that id; none when there is no id. */
async function ownerOf(credentials: ProviderApiCredentials, customerId: string | undefined): Promise<FetchedOwner> {
  if (customerId === undefined) return {};
  return { ...customerFields(await getResource(credentials, 'customers', customerId)), providerCustomerId: customerId };
}

/** The customer behind a mandate; none when there is no mandate or it names no customer. */
async function ownerOfMandate(credentials: ProviderApiCredentials, mandateId: string | undefined): Promise<FetchedOwner> {
  if (mandateId === undefined) return {};
  return ownerOf(credentials, text(await getResource(credentials, 'mandates', mandateId), 'links.customer'));
}

function paymentStatusOf(payment: JsonObject): FetchedPayment['status'] {
  const status = text(payment, 'status');
  if (status === 'failed' || status === 'charged_back') return 'failed';
  if (status !== 'confirmed' && status !== 'paid_out') return 'other';
  const refunded = payment.amount_refunded;
  return typeof refunded === 'number' && refunded > 0 ? 'refunded' : 'succeeded';
}

async function fetchPayment(credentials: ProviderApiCredentials, id: string): Promise<FetchedResource> {
  const payment = await getResource(credentials, 'payments', id);
  const money = amountOf(payment, 'payment');
  return {
    kind: 'payment',
    payment: {
      status: paymentStatusOf(payment),
      providerPaymentId: text(payment, 'id') ?? id,
      ...money,
      customer: await ownerOfMandate(credentials, text(payment, 'links.mandate')),
      subscriptionId: text(payment, 'links.subscription'),
    },
  };
}

async function fetchMandate(credentials: ProviderApiCredentials, id: string): Promise<FetchedResource> {
  return { kind: 'payment_method', paymentMethod: { customer: await ownerOfMandate(credentials, id) } };
}

const ENDED_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set(['cancelled', 'finished']);

async function fetchSubscription(credentials: ProviderApiCredentials, id: string): Promise<FetchedResource> {
  const subscription = await getResource(credentials, 'subscriptions', id);
  return {
    kind: 'subscription',
    subscription: {
      subscriptionId: text(subscription, 'id') ?? id,
      ended: ENDED_SUBSCRIPTION_STATUSES.has(text(subscription, 'status') ?? ''),
      ...amountOf(subscription, 'subscription'),
      customer: await ownerOfMandate(credentials, text(subscription, 'links.mandate')),
    },
  };
}

async function fetchRefund(credentials: ProviderApiCredentials, id: string): Promise<FetchedResource> {
  const refund = await getResource(credentials, 'refunds', id);
  const paymentId = text(refund, 'links.payment');
  if (paymentId === undefined) throw new ProviderApiError(PROVIDER, 'bad_response', 'refund names no payment (links.payment)');
  const mandateId = text(refund, 'links.mandate') ?? text(await getResource(credentials, 'payments', paymentId), 'links.mandate');
  return { kind: 'refund', refund: { providerPaymentId: paymentId, ...amountOf(refund, 'refund'), customer: await ownerOfMandate(credentials, mandateId) } };
}

/** `GET /customers/{id}`: email and name; undefined when the customer has no email. */
async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const customer = customerFields(await getResource(credentials, 'customers', providerCustomerId));
  return customer.email === undefined ? undefined : customer;
}

export const gocardlessApi: ProviderApi & ProviderCustomerFetcher = {
  ...fetchingResources(PROVIDER, { payment: fetchPayment, mandate: fetchMandate, subscription: fetchSubscription, refund: fetchRefund }),
  fetchCustomer,
};
