/**
 * The Braintree provider API adapter (customer lookup over plain HTTP, as the `braintree` SDK
 * sends it) against a loopback fake of the gateway (test/fakes/braintree-api.ts), pointed at it
 * through BRAINTREE_API_BASE_URL, read at call time. The official SDK, driven against the same
 * fake, must read the same customer: the fake is Braintree's protocol, not ours.
 */
import { braintreeApi, customerFieldsOf } from '#adapters/provider-api/braintree';
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

  it('reads the same customer as the official `braintree` SDK sends and reads it against the same fake', async () => {
    // Prepare
    fake.seedCustomer({ id: 'cust_sdk', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
    const origin = new URL(fake.url);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const braintree = require('braintree') as {
      BraintreeGateway: new (config: Record<string, unknown>) => { customer: { find(id: string): Promise<Record<string, unknown>> } };
      Environment: new (server: string, port: string, authUrl: string, ssl: boolean) => unknown;
    };
    const gateway = new braintree.BraintreeGateway({
      environment: new braintree.Environment(origin.hostname, origin.port, origin.origin, false),
      merchantId: BRAINTREE_TEST_MERCHANT_ID,
      publicKey: BRAINTREE_TEST_PUBLIC_KEY,
      privateKey: BRAINTREE_TEST_PRIVATE_KEY,
    });
    const requestsBefore = fake.requests.length;
    // Act
    const bySdk = await gateway.customer.find('cust_sdk');
    const ours = await braintreeApi.fetchCustomer(credentials, 'cust_sdk');
    // Assess
    expect(ours).toEqual({ email: bySdk.email, name: `${bySdk.firstName} ${bySdk.lastName}` });
    const [sdkRequest, ourRequest] = fake.requests.slice(requestsBefore);
    expect([ourRequest?.method, ourRequest?.path, ourRequest?.headers.authorization, ourRequest?.headers['x-apiversion']]).toEqual([
      sdkRequest?.method,
      sdkRequest?.path,
      sdkRequest?.headers.authorization,
      sdkRequest?.headers['x-apiversion'],
    ]);
  });

  it("reads only the customer's own fields, not those of a nested card's billing address, and decodes XML entities", () => {
    // Act
    const fields = customerFieldsOf(`<?xml version="1.0" encoding="UTF-8"?>
<customer>
  <id>c1</id>
  <credit-cards type="array"><credit-card><billing-address><first-name>Billing</first-name><email>card@example.com</email></billing-address></credit-card></credit-cards>
  <first-name>Tom &amp; Jerry</first-name>
  <last-name nil="true"/>
  <email>tom&#64;example.com</email>
</customer>`);
    // Assess
    expect(Object.fromEntries(fields ?? [])).toEqual({ id: 'c1', 'first-name': 'Tom & Jerry', email: 'tom@example.com' });
    expect(customerFieldsOf('<transaction><email>x@example.com</email></transaction>')).toBeUndefined();
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
