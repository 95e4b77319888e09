/**
 * The Stripe provider API adapter (customer lookup through the `stripe` SDK) against a loopback
 * fake of Stripe's API (test/fakes/stripe-api.ts): the SDK is pointed at STRIPE_API_BASE_URL,
 * read at call time.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { stripeApi } from '#adapters/provider-api/stripe';
import { ProviderApiError } from '#core/provider-api';
import { type FakeStripeApi, STRIPE_TEST_SECRET_KEY, startFakeStripeApi } from '#test/fakes/stripe-api';

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('stripeApi.fetchCustomer', () => {
  let fake: FakeStripeApi;
  const credentials = { apiKey: STRIPE_TEST_SECRET_KEY };

  beforeAll(async () => {
    fake = await startFakeStripeApi();
    process.env.STRIPE_API_BASE_URL = fake.url;
  });
  afterAll(async () => {
    delete process.env.STRIPE_API_BASE_URL;
    await fake.stop();
  });
  beforeEach(() => {
    process.env.STRIPE_API_BASE_URL = fake.url;
  });

  it('answers the customer email and name, asking GET /v1/customers/{id} with the secret key as Bearer token', async () => {
    // Prepare
    fake.seedCustomer({ id: 'cus_QWxv3kqYz8N1rT', name: 'Jenny Rosen', email: 'jenny.rosen@example.com' });
    const requestsBefore = fake.requests.length;
    // Act
    const customer = await stripeApi.fetchCustomer(credentials, 'cus_QWxv3kqYz8N1rT');
    // Assess
    expect(customer).toEqual({ email: 'jenny.rosen@example.com', name: 'Jenny Rosen' });
    const requests = fake.requests.slice(requestsBefore);
    expect(requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['GET', '/v1/customers/cus_QWxv3kqYz8N1rT', `Bearer ${STRIPE_TEST_SECRET_KEY}`],
    ]);
    expect(requests[0]?.headers['stripe-version']).toEqual(expect.any(String));
  });

  it('answers undefined for a deleted customer and for a customer without email', async () => {
    // Prepare
    fake.seedDeletedCustomer('cus_deleted0001');
    fake.seedCustomer({ id: 'cus_noemail0001', name: 'No Email' });
    // Act
    const deleted = await stripeApi.fetchCustomer(credentials, 'cus_deleted0001');
    const emailless = await stripeApi.fetchCustomer(credentials, 'cus_noemail0001');
    // Assess
    expect(deleted).toBeUndefined();
    expect(emailless).toBeUndefined();
  });

  it('throws a not-found ProviderApiError when Stripe answers 404 resource_missing', async () => {
    // Act
    const error = await stripeApi.fetchCustomer(credentials, 'cus_unknown').catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(ProviderApiError);
    expect(error).toMatchObject({ failure: 'not_found', status: 404, notFound: true, retryable: false });
  });

  it('throws a retryable ProviderApiError on a 503, after one request only (the SDK does not retry)', async () => {
    // Prepare
    fake.seedCustomer({ id: 'cus_retry0001', email: 'retry@example.com' });
    fake.failNextWith(503);
    const requestsBefore = fake.requests.length;
    // Act
    const error = await stripeApi.fetchCustomer(credentials, 'cus_retry0001').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unavailable', status: 503, retryable: true });
    expect(fake.requests.length - requestsBefore).toBe(1);
  });

  it('throws an unauthorized ProviderApiError when Stripe refuses the key, without naming the key', async () => {
    // Act
    const error = await stripeApi.fetchCustomer({ apiKey: 'sk_test_wrong_key_0000' }, 'cus_QWxv3kqYz8N1rT').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unauthorized', status: 401, retryable: false });
    expect((error as Error).message).not.toContain('sk_test_wrong_key_0000');
  });

  it('throws a retryable ProviderApiError when nothing answers at STRIPE_API_BASE_URL', async () => {
    // Prepare
    process.env.STRIPE_API_BASE_URL = `http://127.0.0.1:${await closedPort()}`;
    // Act
    const error = await stripeApi.fetchCustomer(credentials, 'cus_QWxv3kqYz8N1rT').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unavailable', retryable: true, status: undefined });
  });
});
