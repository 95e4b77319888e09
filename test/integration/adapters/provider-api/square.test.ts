/**
 * The Square provider API adapter (customer lookup) against a loopback fake of its Customers API
 * (test/fakes/square-api.ts): the base URL comes from SQUARE_API_BASE_URL, read at call time.
 */
import { squareApi } from '#adapters/provider-api/square';
import { ProviderApiError } from '#core/provider-api';
import { type FakeSquareApi, SQUARE_TEST_ACCESS_TOKEN, startFakeSquareApi } from '#test/fakes/square-api';

describe('squareApi.fetchCustomer', () => {
  let fake: FakeSquareApi;
  const credentials = { apiKey: SQUARE_TEST_ACCESS_TOKEN };

  beforeAll(async () => {
    fake = await startFakeSquareApi();
    process.env.SQUARE_API_BASE_URL = fake.url;
  });
  afterAll(async () => {
    delete process.env.SQUARE_API_BASE_URL;
    await fake.stop();
  });

  it('answers email_address and the given and family names, asking GET /v2/customers/{id} with the token and Square-Version', async () => {
    // Prepare
    fake.seedCustomer({ id: 'JDKYHBWT1D4F8MFH63DBMEN8Y4', given_name: 'Amelia', family_name: 'Earhart', email_address: 'amelia.earhart@example.com' });
    const requestsBefore = fake.requests.length;
    // Act
    const customer = await squareApi.fetchCustomer(credentials, 'JDKYHBWT1D4F8MFH63DBMEN8Y4');
    // Assess
    expect(customer).toEqual({ email: 'amelia.earhart@example.com', name: 'Amelia Earhart' });
    expect(fake.requests.slice(requestsBefore).map((r) => [r.method, r.path, r.headers.authorization, r.headers['square-version']])).toEqual([
      ['GET', '/v2/customers/JDKYHBWT1D4F8MFH63DBMEN8Y4', `Bearer ${SQUARE_TEST_ACCESS_TOKEN}`, expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/)],
    ]);
  });

  it('names a customer by its company when it has no given or family name, and answers undefined without an email', async () => {
    // Prepare
    fake.seedCustomer({ id: 'COMPANY0000000000000000001', company_name: 'Globex Corp', email_address: 'billing@globex.example' });
    fake.seedCustomer({ id: 'NOEMAIL0000000000000000001', given_name: 'No', family_name: 'Email' });
    // Act
    const company = await squareApi.fetchCustomer(credentials, 'COMPANY0000000000000000001');
    const emailless = await squareApi.fetchCustomer(credentials, 'NOEMAIL0000000000000000001');
    // Assess
    expect(company).toEqual({ email: 'billing@globex.example', name: 'Globex Corp' });
    expect(emailless).toBeUndefined();
  });

  it('throws a not-found ProviderApiError for an unknown customer', async () => {
    // Act
    const error = await squareApi.fetchCustomer(credentials, 'UNKNOWN00000000000000000000').catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(ProviderApiError);
    expect(error).toMatchObject({ failure: 'not_found', status: 404, notFound: true, retryable: false });
  });

  it('throws a retryable ProviderApiError when Square answers 503', async () => {
    // Prepare
    fake.failNextWith(503);
    // Act
    const error = await squareApi.fetchCustomer(credentials, 'JDKYHBWT1D4F8MFH63DBMEN8Y4').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unavailable', status: 503, retryable: true });
  });

  it('throws an unauthorized ProviderApiError when the access token is refused', async () => {
    // Act
    const error = await squareApi.fetchCustomer({ apiKey: 'EAAAwrong' }, 'JDKYHBWT1D4F8MFH63DBMEN8Y4').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unauthorized', status: 401, retryable: false });
  });
});
