import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * One Chargebee site's API v2 on loopback (https://apidocs.chargebee.com/docs/api/customers/retrieve-a-customer):
 * GET /api/v2/customers/{id} answers `{ customer: {...} }`; only HTTP Basic with the fake's API
 * key as username and an empty password is let in. Errors are Chargebee's `{ message, type,
 * api_error_code, http_status_code }`. Point CHARGEBEE_API_BASE_URL at it, either without `{site}`
 * or as `<url>/sites/{site}`: under `/sites/` it answers for its own site only, so a test sees
 * which site the adapter asked for.
 */
export const CHARGEBEE_TEST_SITE = 'acme-test';
export const CHARGEBEE_TEST_SITE_API_KEY = 'test_cdcuNOPcdcuNOPcdcuNOPcdNOPcdcuLc7';
/** What the merchant stores with `providers set-api-key chargebee`. */
export const CHARGEBEE_TEST_API_KEY = `${CHARGEBEE_TEST_SITE}:${CHARGEBEE_TEST_SITE_API_KEY}`;

export interface ChargebeeCustomerSeed {
  readonly id: string;
  readonly first_name?: string;
  readonly last_name?: string;
  readonly company?: string;
  readonly email?: string;
}

export interface FakeChargebeeApi extends JsonApiServer {
  seedCustomer(customer: ChargebeeCustomerSeed): void;
}

const API_ERROR_CODES: Readonly<Record<number, string>> = { 401: 'api_authentication_failed', 404: 'resource_not_found', 405: 'http_method_not_supported' };

export async function startFakeChargebeeApi(siteApiKey = CHARGEBEE_TEST_SITE_API_KEY): Promise<FakeChargebeeApi> {
  const customers = new Map<string, ChargebeeCustomerSeed>();
  const server = await startJsonApiServer({
    authorised: (headers) => headers.authorization === `Basic ${Buffer.from(`${siteApiKey}:`, 'utf8').toString('base64')}`,
    errorBody: (status, title) => ({
      message: title,
      type: status >= 500 ? 'internal_error' : 'invalid_request',
      api_error_code: API_ERROR_CODES[status] ?? 'site_not_ready',
      http_status_code: status,
    }),
    route: (path) => {
      const [, site, id] = /^(?:\/sites\/([^/]+))?\/api\/v2\/customers\/([^/]+)$/.exec(path) ?? [];
      const found = id === undefined || (site !== undefined && site !== CHARGEBEE_TEST_SITE) ? undefined : customers.get(decodeURIComponent(id));
      if (found === undefined) return undefined;
      return {
        body: {
          customer: {
            auto_collection: 'on',
            net_term_days: 0,
            allow_direct_debit: false,
            created_at: 1767600000,
            taxability: 'taxable',
            object: 'customer',
            deleted: false,
            ...found,
          },
        },
      };
    },
  });
  return { ...server, seedCustomer: (customer) => void customers.set(customer.id, customer) };
}
