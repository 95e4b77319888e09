import { type FetchedPayment, type ProviderApi, type ProviderApiCredentials, ProviderApiError } from '../../core/provider-api';
import { type JsonObject, joinName, objectAt, text } from '../../webhooks/json-payload';
import { baseUrlOf, getJson } from './http';

/**
 * GoCardless's API (https://developer.gocardless.com/api-reference), with the merchant's access
 * token as a Bearer token and the `GoCardless-Version` header every request must carry.
 *
 * `GET /payments/{id}` → `{ payments: { id, amount (minor units), amount_refunded, currency,
 * status, links: { mandate, subscription? } } }`; the customer is behind the mandate:
 * `GET /mandates/{id}` → `{ mandates: { links: { customer } } }`, then `GET /customers/{id}` →
 * `{ customers: { email, given_name, family_name, company_name } }`.
 *
 * Status: failed, charged_back → failed; confirmed, paid_out → succeeded (refunded when
 * `amount_refunded` is positive); pending_*, submitted, cancelled, customer_approval_denied →
 * other. A payment carries no failure cause: the event's `details.cause` is the decline code.
 */
const PROVIDER = 'gocardless';
export const GOCARDLESS_VERSION = '2015-07-06';

function headers(credentials: ProviderApiCredentials): Record<string, string> {
  return { authorization: `Bearer ${credentials.apiKey}`, 'gocardless-version': GOCARDLESS_VERSION };
}

function envelope(body: JsonObject, name: string): JsonObject {
  const resource = objectAt(body, name);
  if (resource === undefined) throw new ProviderApiError(PROVIDER, 'bad_response', `answer has no "${name}" object`);
  return resource;
}

function statusOf(payment: JsonObject): FetchedPayment['status'] {
  const status = text(payment, 'status');
  if (status === 'failed' || status === 'charged_back') return 'failed';
  if (status !== 'confirmed' && status !== 'paid_out') return 'other';
  const refunded = payment['amount_refunded'];
  return typeof refunded === 'number' && refunded > 0 ? 'refunded' : 'succeeded';
}

async function fetchPayment(credentials: ProviderApiCredentials, id: string): Promise<FetchedPayment> {
  const base = baseUrlOf('GOCARDLESS_API_BASE_URL');
  const get = async (path: string, name: string): Promise<JsonObject> => envelope(await getJson(PROVIDER, `${base}${path}`, headers(credentials)), name);
  const payment = await get(`/payments/${encodeURIComponent(id)}`, 'payments');
  const amount = payment['amount'];
  const currency = text(payment, 'currency');
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) throw new ProviderApiError(PROVIDER, 'bad_response', 'payment amount is not a whole number of minor units');
  if (currency === undefined || !/^[A-Za-z]{3}$/.test(currency)) throw new ProviderApiError(PROVIDER, 'bad_response', 'payment currency is not a currency code');
  const mandateId = text(payment, 'links.mandate');
  let customer: FetchedPayment['customer'] = {};
  if (mandateId !== undefined) {
    const customerId = text(await get(`/mandates/${encodeURIComponent(mandateId)}`, 'mandates'), 'links.customer');
    if (customerId !== undefined) {
      const found = await get(`/customers/${encodeURIComponent(customerId)}`, 'customers');
      customer = {
        email: text(found, 'email'),
        name: joinName(text(found, 'given_name'), text(found, 'family_name')) ?? text(found, 'company_name'),
        providerCustomerId: customerId,
      };
    }
  }
  return {
    status: statusOf(payment),
    providerPaymentId: text(payment, 'id') ?? id,
    amount,
    currency: currency.toLowerCase(),
    customer,
    subscriptionId: text(payment, 'links.subscription'),
  };
}

export const gocardlessApi: ProviderApi = { fetchPayment };
