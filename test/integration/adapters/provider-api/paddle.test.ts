/**
 * The Paddle provider API adapter (customer lookup) against a loopback fake of Paddle's API
 * (test/fakes): the base URL comes from PADDLE_API_BASE_URL, read at call time.
 */
import { paddleApi } from '#adapters/provider-api/paddle';
import { ProviderApiError } from '#core/provider-api';
import { type FakePaddleApi, PADDLE_TEST_API_KEY, startFakePaddleApi } from '#test/fakes/paddle-api';

describe('paddleApi.fetchCustomer', () => {
  let fake: FakePaddleApi;
  const credentials = { apiKey: PADDLE_TEST_API_KEY };

  beforeAll(async () => {
    fake = await startFakePaddleApi();
    process.env.PADDLE_API_BASE_URL = fake.url;
  });
  afterAll(async () => {
    delete process.env.PADDLE_API_BASE_URL;
    await fake.stop();
  });

  it('answers the customer email and name from data, with the API key as Bearer token', async () => {
    // Prepare
    fake.seedCustomer({ id: 'ctm_unit01', name: 'Sam Miller', email: 'sam@example.com' });
    // Act
    const customer = await paddleApi.fetchCustomer(credentials, 'ctm_unit01');
    // Assess
    expect(customer).toEqual({ email: 'sam@example.com', name: 'Sam Miller' });
    const request = fake.requests.find((r) => r.path === '/customers/ctm_unit01');
    expect(request).toMatchObject({ method: 'GET', headers: expect.objectContaining({ authorization: `Bearer ${PADDLE_TEST_API_KEY}` }) });
  });

  it('answers the email without a name when Paddle holds none, and undefined when the customer has no email', async () => {
    // Prepare
    fake.seedCustomer({ id: 'ctm_unit02', email: 'noname@example.com' });
    fake.seedCustomer({ id: 'ctm_unit03' });
    // Act
    const named = await paddleApi.fetchCustomer(credentials, 'ctm_unit02');
    const emailless = await paddleApi.fetchCustomer(credentials, 'ctm_unit03');
    // Assess
    expect(named).toEqual({ email: 'noname@example.com', name: undefined });
    expect(emailless).toBeUndefined();
  });

  it('throws a not-found ProviderApiError for an unknown customer', async () => {
    // Act
    const error = await paddleApi.fetchCustomer(credentials, 'ctm_unknown').catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(ProviderApiError);
    expect(error).toMatchObject({ failure: 'not_found', status: 404, notFound: true, retryable: false });
  });

  it('throws a retryable ProviderApiError when Paddle answers 503', async () => {
    // Prepare
    fake.seedCustomer({ id: 'ctm_unit04', email: 'retry@example.com' });
    fake.failNextWith(503);
    // Act
    const error = await paddleApi.fetchCustomer(credentials, 'ctm_unit04').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unavailable', status: 503, retryable: true });
  });

  it('throws an unauthorized ProviderApiError when the key is refused', async () => {
    // Act
    const error = await paddleApi.fetchCustomer({ apiKey: 'pdl_wrong' }, 'ctm_unit01').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unauthorized', status: 401, retryable: false });
  });
});
