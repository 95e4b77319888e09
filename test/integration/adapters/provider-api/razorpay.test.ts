/**
 * The Razorpay provider API adapter (customer lookup) against a loopback fake of its Customers API
 * (test/fakes/razorpay-api.ts): the base URL comes from RAZORPAY_API_BASE_URL, read at call time.
 */
import { razorpayApi } from '#adapters/provider-api/razorpay';
import { ProviderApiError } from '#core/provider-api';
import { type FakeRazorpayApi, RAZORPAY_TEST_API_KEY, RAZORPAY_TEST_KEY_ID, RAZORPAY_TEST_KEY_SECRET, startFakeRazorpayApi } from '#test/fakes/razorpay-api';

describe('razorpayApi.fetchCustomer', () => {
  let fake: FakeRazorpayApi;
  const credentials = { apiKey: RAZORPAY_TEST_API_KEY };

  beforeAll(async () => {
    fake = await startFakeRazorpayApi();
    process.env.RAZORPAY_API_BASE_URL = fake.url;
  });
  afterAll(async () => {
    delete process.env.RAZORPAY_API_BASE_URL;
    await fake.stop();
  });

  it('answers the customer email and name, asking GET /v1/customers/{id} with key_id:key_secret as Basic credentials', async () => {
    // Prepare
    fake.seedCustomer({ id: 'cust_DESlUw4IHPmr0T', name: 'Gaurav Kumar', email: 'gaurav.kumar@example.com', contact: '+919123456780' });
    const requestsBefore = fake.requests.length;
    // Act
    const customer = await razorpayApi.fetchCustomer(credentials, 'cust_DESlUw4IHPmr0T');
    // Assess
    expect(customer).toEqual({ email: 'gaurav.kumar@example.com', name: 'Gaurav Kumar' });
    const [request] = fake.requests.slice(requestsBefore);
    expect([request?.method, request?.path]).toEqual(['GET', '/v1/customers/cust_DESlUw4IHPmr0T']);
    expect(Buffer.from((request?.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8')).toBe(
      `${RAZORPAY_TEST_KEY_ID}:${RAZORPAY_TEST_KEY_SECRET}`,
    );
  });

  it('answers undefined when Razorpay holds no email for the customer', async () => {
    // Prepare
    fake.seedCustomer({ id: 'cust_noemail00001', name: 'No Email', contact: '+919000000001' });
    // Act
    const customer = await razorpayApi.fetchCustomer(credentials, 'cust_noemail00001');
    // Assess
    expect(customer).toBeUndefined();
  });

  it('throws a not-found ProviderApiError for the 400 Razorpay answers for an unknown customer id', async () => {
    // Act
    const error = await razorpayApi.fetchCustomer(credentials, 'cust_unknown00001').catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(ProviderApiError);
    expect(error).toMatchObject({ failure: 'not_found', status: 400, notFound: true, retryable: false });
  });

  it('throws a not-found ProviderApiError for a 404 (a path the API does not have)', async () => {
    // Prepare
    process.env.RAZORPAY_API_BASE_URL = `${fake.url}/elsewhere`;
    // Act
    const error = await razorpayApi.fetchCustomer(credentials, 'cust_DESlUw4IHPmr0T').catch((caught: unknown) => caught);
    process.env.RAZORPAY_API_BASE_URL = fake.url;
    // Assess
    expect(error).toMatchObject({ failure: 'not_found', status: 404 });
  });

  it('throws a retryable ProviderApiError when Razorpay answers 503', async () => {
    // Prepare
    fake.failNextWith(503);
    // Act
    const error = await razorpayApi.fetchCustomer(credentials, 'cust_DESlUw4IHPmr0T').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unavailable', status: 503, retryable: true });
  });

  it('throws an unauthorized ProviderApiError when the keys are refused', async () => {
    // Act
    const error = await razorpayApi.fetchCustomer({ apiKey: `${RAZORPAY_TEST_KEY_ID}:wrong_secret` }, 'cust_DESlUw4IHPmr0T').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unauthorized', status: 401, retryable: false });
  });

  it('throws an unauthorized ProviderApiError, without calling Razorpay or naming the key, when the key is not key_id:key_secret', async () => {
    // Prepare
    const requestsBefore = fake.requests.length;
    // Act
    const error = await razorpayApi.fetchCustomer({ apiKey: 'rzp_test_only_the_key_id' }, 'cust_DESlUw4IHPmr0T').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unauthorized', retryable: false });
    expect((error as Error).message).not.toContain('rzp_test_only_the_key_id');
    expect(fake.requests.length).toBe(requestsBefore);
  });
});
