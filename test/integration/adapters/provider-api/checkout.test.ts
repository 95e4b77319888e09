/**
 * The Checkout.com provider API adapter (customer lookup) against a loopback fake of its API
 * (test/fakes/checkout-api.ts): the base URL comes from CHECKOUT_API_BASE_URL, read at call time.
 */
import { checkoutApi } from '#adapters/provider-api/checkout';
import { ProviderApiError } from '#core/provider-api';
import { CHECKOUT_TEST_SECRET_KEY, type FakeCheckoutApi, startFakeCheckoutApi } from '#test/fakes/checkout-api';

describe('checkoutApi.fetchCustomer', () => {
  let fake: FakeCheckoutApi;
  const credentials = { apiKey: CHECKOUT_TEST_SECRET_KEY };

  beforeAll(async () => {
    fake = await startFakeCheckoutApi();
    process.env.CHECKOUT_API_BASE_URL = fake.url;
  });
  afterAll(async () => {
    delete process.env.CHECKOUT_API_BASE_URL;
    await fake.stop();
  });

  it('answers the customer email and name, asking GET /customers/{id} with the secret key as Bearer token', async () => {
    // Prepare
    fake.seedCustomer({ id: 'cus_m3cixs4slzcelfjmdcodlgyvkq', name: 'Bruce Wayne', email: 'bruce.wayne@example.com' });
    const requestsBefore = fake.requests.length;
    // Act
    const customer = await checkoutApi.fetchCustomer(credentials, 'cus_m3cixs4slzcelfjmdcodlgyvkq');
    // Assess
    expect(customer).toEqual({ email: 'bruce.wayne@example.com', name: 'Bruce Wayne' });
    expect(fake.requests.slice(requestsBefore).map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['GET', '/customers/cus_m3cixs4slzcelfjmdcodlgyvkq', `Bearer ${CHECKOUT_TEST_SECRET_KEY}`],
    ]);
  });

  it('answers undefined when Checkout.com holds no email for the customer', async () => {
    // Prepare
    fake.seedCustomer({ id: 'cus_noemail000000000000000000', name: 'No Email' });
    // Act
    const customer = await checkoutApi.fetchCustomer(credentials, 'cus_noemail000000000000000000');
    // Assess
    expect(customer).toBeUndefined();
  });

  it('throws a not-found ProviderApiError for an unknown customer', async () => {
    // Act
    const error = await checkoutApi.fetchCustomer(credentials, 'cus_unknown').catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(ProviderApiError);
    expect(error).toMatchObject({ failure: 'not_found', status: 404, notFound: true, retryable: false });
  });

  it('throws a retryable ProviderApiError when Checkout.com answers 503', async () => {
    // Prepare
    fake.failNextWith(503);
    // Act
    const error = await checkoutApi.fetchCustomer(credentials, 'cus_m3cixs4slzcelfjmdcodlgyvkq').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unavailable', status: 503, retryable: true });
  });

  it('throws an unauthorized ProviderApiError when the key is refused', async () => {
    // Act
    const error = await checkoutApi.fetchCustomer({ apiKey: 'sk_sbox_wrong' }, 'cus_m3cixs4slzcelfjmdcodlgyvkq').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unauthorized', status: 401, retryable: false });
  });
});
