import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * Paddle Billing's API on loopback (https://developer.paddle.com/api-reference/customers/get-customer):
 * GET /customers/{customer_id} answers the seeded customer as `{ data: {…}, meta: { request_id } }`;
 * only `Authorization: Bearer <apiKey>` with the fake's key is let in.
 */
export const PADDLE_TEST_API_KEY = 'pdl_sdbx_apikey_01hv8wqr2k3ngs0f7fz8w3xd2e_Qm9rZXlLZXlGb3JUZXN0cw';

export interface PaddleCustomerSeed {
  readonly id: string;
  readonly name?: string | null;
  readonly email?: string;
}

export interface FakePaddleApi extends JsonApiServer {
  seedCustomer(customer: PaddleCustomerSeed): void;
}

export async function startFakePaddleApi(apiKey = PADDLE_TEST_API_KEY): Promise<FakePaddleApi> {
  const customers = new Map<string, PaddleCustomerSeed>();
  const server = await startJsonApiServer({
    authorised: (headers) => headers.authorization === `Bearer ${apiKey}`,
    route: (path) => {
      const match = /^\/customers\/([^/]+)$/.exec(path);
      const found = match?.[1] === undefined ? undefined : customers.get(decodeURIComponent(match[1]));
      if (found === undefined) return undefined;
      return {
        body: {
          data: {
            status: 'active',
            custom_data: null,
            name: null,
            marketing_consent: false,
            locale: 'en',
            created_at: '2023-08-22T07:10:00.000Z',
            updated_at: '2023-08-22T07:10:00.000Z',
            import_meta: null,
            ...found,
          },
          meta: { request_id: 'f0c9ba18-9bdc-4090-941d-a1499e1d1374' },
        },
      };
    },
  });
  return { ...server, seedCustomer: (customer) => void customers.set(customer.id, customer) };
}
