import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * Square's Customers API on loopback (https://developer.squareup.com/reference/square/customers-api/retrieve-customer):
 * GET /v2/customers/{customer_id} answers `{ customer: {...} }`; only `Authorization: Bearer
 * <access token>` with the fake's token and a `Square-Version` header are let in. Errors are
 * Square's `{ errors: [{ category, code, detail }] }`.
 */
export const SQUARE_TEST_ACCESS_TOKEN = 'EAAAl3xJ8qQbVfZ0sandbox_token_9c1d4e7f2a5b8c0d3e6f';

export interface SquareCustomerSeed {
  readonly id: string;
  readonly given_name?: string;
  readonly family_name?: string;
  readonly company_name?: string;
  readonly email_address?: string;
}

export interface FakeSquareApi extends JsonApiServer {
  seedCustomer(customer: SquareCustomerSeed): void;
}

const CODES: Readonly<Record<number, [category: string, code: string]>> = {
  401: ['AUTHENTICATION_ERROR', 'UNAUTHORIZED'],
  404: ['INVALID_REQUEST_ERROR', 'NOT_FOUND'],
  405: ['INVALID_REQUEST_ERROR', 'METHOD_NOT_ALLOWED'],
};

export async function startFakeSquareApi(token = SQUARE_TEST_ACCESS_TOKEN): Promise<FakeSquareApi> {
  const customers = new Map<string, SquareCustomerSeed>();
  const server = await startJsonApiServer({
    authorised: (headers) => headers.authorization === `Bearer ${token}` && typeof headers['square-version'] === 'string',
    errorBody: (status, title) => {
      const [category, code] = CODES[status] ?? ['API_ERROR', 'SERVICE_UNAVAILABLE'];
      return { errors: [{ category, code, detail: title }] };
    },
    route: (path) => {
      const match = /^\/v2\/customers\/([^/]+)$/.exec(path);
      const found = match?.[1] === undefined ? undefined : customers.get(decodeURIComponent(match[1]));
      if (found === undefined) return undefined;
      return {
        body: {
          customer: {
            created_at: '2026-01-12T09:30:00.000Z',
            updated_at: '2026-01-12T09:30:00.000Z',
            preferences: { email_unsubscribed: false },
            creation_source: 'THIRD_PARTY',
            version: 0,
            ...found,
          },
        },
      };
    },
  });
  return { ...server, seedCustomer: (customer) => void customers.set(customer.id, customer) };
}
