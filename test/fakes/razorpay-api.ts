import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * Razorpay's Customers API on loopback (https://razorpay.com/docs/api/customers/fetch-with-id):
 * GET /v1/customers/{id} answers the seeded customer; only HTTP Basic `key_id:key_secret` with the
 * fake's keys is let in. As Razorpay does, an unknown customer id is 400 `BAD_REQUEST_ERROR`
 * ("The id provided does not exist"), not 404; errors are `{ error: { code, description, … } }`.
 */
export const RAZORPAY_TEST_KEY_ID = 'rzp_test_1DP5mmOlF5G5ag';
export const RAZORPAY_TEST_KEY_SECRET = 'thisisasupersecretfake0001';
/** What the merchant stores with `providers set-api-key razorpay`. */
export const RAZORPAY_TEST_API_KEY = `${RAZORPAY_TEST_KEY_ID}:${RAZORPAY_TEST_KEY_SECRET}`;

export interface RazorpayCustomerSeed {
  readonly id: string;
  readonly name?: string;
  readonly email?: string;
  readonly contact?: string;
}

export interface FakeRazorpayApi extends JsonApiServer {
  seedCustomer(customer: RazorpayCustomerSeed): void;
}

const razorpayError = (code: string, description: string): unknown => ({
  error: { code, description, source: 'business', step: 'payment_initiation', reason: 'input_validation_failed', metadata: {} },
});

export async function startFakeRazorpayApi(apiKey = RAZORPAY_TEST_API_KEY): Promise<FakeRazorpayApi> {
  const customers = new Map<string, RazorpayCustomerSeed>();
  const server = await startJsonApiServer({
    authorised: (headers) => headers.authorization === `Basic ${Buffer.from(apiKey, 'utf8').toString('base64')}`,
    errorBody: (status, title) => razorpayError(status >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST_ERROR', status === 401 ? 'Authentication failed' : title),
    route: (path) => {
      const match = /^\/v1\/customers\/([^/]+)$/.exec(path);
      if (match?.[1] === undefined) return undefined;
      const found = customers.get(decodeURIComponent(match[1]));
      if (found === undefined) return { status: 400, body: razorpayError('BAD_REQUEST_ERROR', 'The id provided does not exist') };
      return { body: { entity: 'customer', contact: null, gstin: null, notes: {}, created_at: 1767600000, ...found } };
    },
  });
  return { ...server, seedCustomer: (customer) => void customers.set(customer.id, customer) };
}
