import { type FetchedCustomer, type ProviderApiCredentials, ProviderApiError, type ProviderCustomerFetcher } from '#core/provider-api';
import { joinName, text } from '#webhooks/json-payload';
import { baseUrlOf, getJson } from './http';

/**
 * Chargebee's API v2 (https://apidocs.chargebee.com/docs/api/customers/retrieve-a-customer), with
 * HTTP Basic authentication whose username is the API key and whose password is empty
 * (https://apidocs.chargebee.com/docs/api/auth). Every Chargebee site has an API of its own,
 * `https://{site}.chargebee.com`, so the merchant's API key is stored with its site, as the
 * Chargebee admin console shows both: `<site>:<api_key>` (`acme-test:test_…` for a test site).
 * CHARGEBEE_API_BASE_URL is the origin with `{site}` where the site goes (default
 * `https://{site}.chargebee.com`; an origin without `{site}` serves every site, as a proxy or a
 * test fake does).
 *
 * `GET /api/v2/customers/{id}` answers `{ customer: { id, first_name, last_name, company, email,
 * … } }` (404 `resource_not_found` for an unknown one). Only the customer lookup is implemented.
 */
const PROVIDER = 'chargebee';

/** Chargebee site names: letters, digits and hyphens. */
const SITE = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

function siteAndKey(credentials: ProviderApiCredentials): { readonly site: string; readonly apiKey: string } {
  const separator = credentials.apiKey.indexOf(':');
  const site = credentials.apiKey.slice(0, Math.max(separator, 0));
  const apiKey = credentials.apiKey.slice(separator + 1);
  if (separator <= 0 || !SITE.test(site) || apiKey === '')
    throw new ProviderApiError(PROVIDER, 'unauthorized', "the merchant's API key is not stored as <site>:<api_key>");
  return { site, apiKey };
}

async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const { site, apiKey } = siteAndKey(credentials);
  const origin = baseUrlOf('CHARGEBEE_API_BASE_URL').replace('{site}', site);
  const body = await getJson(PROVIDER, `${origin}/api/v2/customers/${encodeURIComponent(providerCustomerId)}`, {
    authorization: `Basic ${Buffer.from(`${apiKey}:`, 'utf8').toString('base64')}`,
  });
  const email = text(body, 'customer.email');
  if (email === undefined) return undefined;
  return { email, name: joinName(text(body, 'customer.first_name'), text(body, 'customer.last_name')) ?? text(body, 'customer.company') };
}

export const chargebeeApi: ProviderCustomerFetcher = { fetchCustomer };
