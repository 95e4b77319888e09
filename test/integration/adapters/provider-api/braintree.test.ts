/**
 * The Braintree provider API adapter (customer lookup through the `braintree` SDK) against a
 * loopback fake of the gateway (test/fakes/braintree-api.ts): the SDK is pointed at
 * BRAINTREE_API_BASE_URL, read at call time, through a `braintree.Environment` of its own.
 */
import { braintreeApi } from '#adapters/provider-api/braintree';
import { ProviderApiError } from '#core/provider-api';
import {
  BRAINTREE_TEST_API_KEY,
  BRAINTREE_TEST_MERCHANT_ID,
  BRAINTREE_TEST_PRIVATE_KEY,
  BRAINTREE_TEST_PUBLIC_KEY,
  type FakeBraintreeApi,
  startFakeBraintreeApi,
} from '#test/fakes/braintree-api';

describe('braintreeApi.fetchCustomer', () => {
  let fake: FakeBraintreeApi;
  const credentials = { apiKey: BRAINTREE_TEST_API_KEY };

  beforeAll(async () => {
    fake = await startFakeBraintreeApi();
    process.env.BRAINTREE_API_BASE_URL = fake.url;
  });
  afterAll(async () => {
    delete process.env.BRAINTREE_API_BASE_URL;
    await fake.stop();
  });

  it('answers the customer email and name, asking GET /merchants/{merchant}/customers/{id} with the public and private keys as Basic credentials', async () => {
    // Prepare
    fake.seedCustomer({ id: 'cust_4417', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
    const requestsBefore = fake.requests.length;
    // Act
    const customer = await braintreeApi.fetchCustomer(credentials, 'cust_4417');
    // Assess
    expect(customer).toEqual({ email: 'ada@example.com', name: 'Ada Lovelace' });
    const [request] = fake.requests.slice(requestsBefore);
    expect([request?.method, request?.path, request?.headers['x-apiversion']]).toEqual([
      'GET',
      `/merchants/${BRAINTREE_TEST_MERCHANT_ID}/customers/cust_4417`,
      '6',
    ]);
    expect(Buffer.from((request?.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8')).toBe(
      `${BRAINTREE_TEST_PUBLIC_KEY}:${BRAINTREE_TEST_PRIVATE_KEY}`,
    );
  });

  it('names a customer by its company without first and last names, and answers undefined without an email', async () => {
    // Prepare
    fake.seedCustomer({ id: 'cust_company', company: 'Jones Co.', email: 'ap@jones.example' });
    fake.seedCustomer({ id: 'cust_noemail', firstName: 'No', lastName: 'Email' });
    // Act
    const company = await braintreeApi.fetchCustomer(credentials, 'cust_company');
    const emailless = await braintreeApi.fetchCustomer(credentials, 'cust_noemail');
    // Assess
    expect(company).toEqual({ email: 'ap@jones.example', name: 'Jones Co.' });
    expect(emailless).toBeUndefined();
  });

  it('throws a not-found ProviderApiError for an unknown customer', async () => {
    // Act
    const error = await braintreeApi.fetchCustomer(credentials, 'cust_unknown').catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(ProviderApiError);
    expect(error).toMatchObject({ failure: 'not_found', status: 404, notFound: true, retryable: false });
  });

  it('throws a retryable ProviderApiError when the gateway answers 503 or 502', async () => {
    // Prepare
    fake.failNextWith(503);
    fake.failNextWith(502);
    // Act
    const unavailable = await braintreeApi.fetchCustomer(credentials, 'cust_4417').catch((caught: unknown) => caught);
    const badGateway = await braintreeApi.fetchCustomer(credentials, 'cust_4417').catch((caught: unknown) => caught);
    // Assess
    expect(unavailable).toMatchObject({ failure: 'unavailable', status: 503, retryable: true });
    expect(badGateway).toMatchObject({ failure: 'unavailable', status: 502, retryable: true });
  });

  it('throws an unauthorized ProviderApiError when the keys are refused', async () => {
    // Act
    const error = await braintreeApi
      .fetchCustomer({ apiKey: `${BRAINTREE_TEST_MERCHANT_ID}:${BRAINTREE_TEST_PUBLIC_KEY}:wrong_private_key` }, 'cust_4417')
      .catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unauthorized', status: 401, retryable: false });
  });

  it('throws an unauthorized ProviderApiError, without calling Braintree or naming the keys, when the key is not merchant_id:public_key:private_key', async () => {
    // Prepare
    const requestsBefore = fake.requests.length;
    // Act
    const error = await braintreeApi
      .fetchCustomer({ apiKey: `${BRAINTREE_TEST_PUBLIC_KEY}:${BRAINTREE_TEST_PRIVATE_KEY}` }, 'cust_4417')
      .catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unauthorized', retryable: false });
    expect((error as Error).message).not.toContain(BRAINTREE_TEST_PRIVATE_KEY);
    expect(fake.requests.length).toBe(requestsBefore);
  });
});
