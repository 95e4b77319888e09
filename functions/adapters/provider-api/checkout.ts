import type { FetchedCustomer, ProviderApiCredentials, ProviderCustomerFetcher } from '#core/provider-api';
import { text } from '#webhooks/json-payload';
import { baseUrlOf, getJson } from './http';

/**
 * Checkout.com's API (https://api-reference.checkout.com/#operation/getCustomerDetails), with the
 * merchant's secret key (`sk_…`) as a Bearer token. Payment events carry `data.customer.id`
 * (`cus_…`) and usually the email; when they do not, `GET /customers/{identifier}` answers
 * `{ id, email, name, phone, metadata, default, instruments }` (404 for an unknown customer).
 * CHECKOUT_API_BASE_URL is the account's API origin (https://api.sandbox.checkout.com for the
 * sandbox, or the account's own https://{prefix}.api.checkout.com). Only the customer lookup is
 * implemented.
 */
const PROVIDER = 'checkout';

async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const customer = await getJson(PROVIDER, `${baseUrlOf('CHECKOUT_API_BASE_URL')}/customers/${encodeURIComponent(providerCustomerId)}`, {
    authorization: `Bearer ${credentials.apiKey}`,
  });
  const email = text(customer, 'email');
  return email === undefined ? undefined : { email, name: text(customer, 'name') };
}

export const checkoutApi: ProviderCustomerFetcher = { fetchCustomer };
