import { type FetchedCustomer, type ProviderApiCredentials, ProviderApiError, type ProviderCustomerFetcher } from '#core/provider-api';
import { text } from '#webhooks/json-payload';
import { baseUrlOf, getJson } from './http';

/**
 * Razorpay's Customers API (https://razorpay.com/docs/api/customers/fetch-with-id), with HTTP
 * Basic authentication: the merchant's API key is stored as `<key_id>:<key_secret>`
 * (`providers set-api-key razorpay`), exactly the Basic credentials. `payment.failed` events
 * carry `customer_id` (`cust_…`) and usually `email`; when not, `GET /v1/customers/{id}` answers
 * `{ id, entity: "customer", name, email, contact, … }`.
 *
 * Razorpay answers an unknown or malformed customer id with 400 `BAD_REQUEST_ERROR` ("The id
 * provided does not exist", "… is not a valid id"), not 404; those are the only 400s the endpoint
 * documents, so a 400 here is not_found. Only the customer lookup is implemented.
 */
const PROVIDER = 'razorpay';

function authorization(credentials: ProviderApiCredentials): string {
  const separator = credentials.apiKey.indexOf(':');
  if (separator <= 0 || separator === credentials.apiKey.length - 1) {
    throw new ProviderApiError(PROVIDER, 'unauthorized', "the merchant's API key is not stored as <key_id>:<key_secret>");
  }
  return `Basic ${Buffer.from(credentials.apiKey, 'utf8').toString('base64')}`;
}

/** Razorpay's 400 for a customer id that names nothing, as the not_found it is; any other error as it was. */
const notFoundOn400 = (error: unknown): unknown =>
  error instanceof ProviderApiError && error.status === 400
    ? new ProviderApiError(PROVIDER, 'not_found', 'answered 400 (no such customer)', { cause: error, status: 400 })
    : error;

async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const url = `${baseUrlOf('RAZORPAY_API_BASE_URL')}/v1/customers/${encodeURIComponent(providerCustomerId)}`;
  const customer = await getJson(PROVIDER, url, { authorization: authorization(credentials) }).catch((error: unknown) => {
    throw notFoundOn400(error);
  });
  const email = text(customer, 'email');
  return email === undefined ? undefined : { email, name: text(customer, 'name') };
}

export const razorpayApi: ProviderCustomerFetcher = { fetchCustomer };
