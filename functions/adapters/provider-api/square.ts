import type { FetchedCustomer, ProviderApiCredentials, ProviderCustomerFetcher } from '#core/provider-api';
import { joinName, text } from '#webhooks/json-payload';
import { baseUrlOf, getJson } from './http';

/**
 * Square's Customers API (https://developer.squareup.com/reference/square/customers-api/retrieve-customer),
 * with the merchant's access token as a Bearer token and the `Square-Version` every request names.
 * Payment events carry `customer_id` and only sometimes `buyer_email_address`:
 * `GET /v2/customers/{customer_id}` answers `{ customer: { id, given_name, family_name,
 * company_name, email_address, … } }` (404 with `errors: [{ code: "NOT_FOUND" }]` for an unknown
 * one). The name is the given and family names, else the company name. Only the customer lookup
 * is implemented.
 */
const PROVIDER = 'square';

/** The API version the requests are written against (the square SDK 46's). */
const SQUARE_VERSION = '2026-09-16';

async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const body = await getJson(PROVIDER, `${baseUrlOf('SQUARE_API_BASE_URL')}/v2/customers/${encodeURIComponent(providerCustomerId)}`, {
    authorization: `Bearer ${credentials.apiKey}`,
    'square-version': SQUARE_VERSION,
  });
  const email = text(body, 'customer.email_address');
  if (email === undefined) return undefined;
  return { email, name: joinName(text(body, 'customer.given_name'), text(body, 'customer.family_name')) ?? text(body, 'customer.company_name') };
}

export const squareApi: ProviderCustomerFetcher = { fetchCustomer };
