/**
 * The Chargebee provider API adapter (customer lookup) against a loopback fake of one site's API
 * (test/fakes/chargebee-api.ts): the origin comes from CHARGEBEE_API_BASE_URL, read at call time,
 * with `{site}` replaced by the site of the merchant's `<site>:<api_key>`.
 */
import { chargebeeApi } from '#adapters/provider-api/chargebee';
import { ProviderApiError } from '#core/provider-api';
import {
  CHARGEBEE_TEST_API_KEY,
  CHARGEBEE_TEST_SITE,
  CHARGEBEE_TEST_SITE_API_KEY,
  type FakeChargebeeApi,
  startFakeChargebeeApi,
} from '#test/fakes/chargebee-api';

describe('chargebeeApi.fetchCustomer', () => {
  let fake: FakeChargebeeApi;
  const credentials = { apiKey: CHARGEBEE_TEST_API_KEY };

  beforeAll(async () => {
    fake = await startFakeChargebeeApi();
  });
  beforeEach(() => {
    process.env.CHARGEBEE_API_BASE_URL = `${fake.url}/sites/{site}`;
  });
  afterAll(async () => {
    delete process.env.CHARGEBEE_API_BASE_URL;
    await fake.stop();
  });

  it('answers the customer email and name from the site named in the key, with the API key as Basic username and no password', async () => {
    // Prepare
    fake.seedCustomer({ id: 'AzZhUGSPAkLpyFQ1', first_name: 'Ada', last_name: 'Lovelace', email: 'ada.chargebee@example.com' });
    const requestsBefore = fake.requests.length;
    // Act
    const customer = await chargebeeApi.fetchCustomer(credentials, 'AzZhUGSPAkLpyFQ1');
    // Assess
    expect(customer).toEqual({ email: 'ada.chargebee@example.com', name: 'Ada Lovelace' });
    const [request] = fake.requests.slice(requestsBefore);
    expect([request?.method, request?.path]).toEqual(['GET', `/sites/${CHARGEBEE_TEST_SITE}/api/v2/customers/AzZhUGSPAkLpyFQ1`]);
    expect(Buffer.from((request?.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8')).toBe(`${CHARGEBEE_TEST_SITE_API_KEY}:`);
  });

  it('names a customer by its company without first and last names, and answers undefined without an email', async () => {
    // Prepare
    fake.seedCustomer({ id: 'cbCompany0001', company: 'Initech', email: 'ap@initech.example' });
    fake.seedCustomer({ id: 'cbNoEmail0001', first_name: 'No', last_name: 'Email' });
    // Act
    const company = await chargebeeApi.fetchCustomer(credentials, 'cbCompany0001');
    const emailless = await chargebeeApi.fetchCustomer(credentials, 'cbNoEmail0001');
    // Assess
    expect(company).toEqual({ email: 'ap@initech.example', name: 'Initech' });
    expect(emailless).toBeUndefined();
  });

  it('serves every site from an origin without {site}', async () => {
    // Prepare
    process.env.CHARGEBEE_API_BASE_URL = fake.url;
    const requestsBefore = fake.requests.length;
    // Act
    const customer = await chargebeeApi.fetchCustomer(credentials, 'AzZhUGSPAkLpyFQ1');
    // Assess
    expect(customer).toEqual({ email: 'ada.chargebee@example.com', name: 'Ada Lovelace' });
    expect(fake.requests.slice(requestsBefore).map((r) => r.path)).toEqual(['/api/v2/customers/AzZhUGSPAkLpyFQ1']);
  });

  it('throws a not-found ProviderApiError for an unknown customer', async () => {
    // Act
    const error = await chargebeeApi.fetchCustomer(credentials, 'cbUnknown0001').catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(ProviderApiError);
    expect(error).toMatchObject({ failure: 'not_found', status: 404, notFound: true, retryable: false });
  });

  it('throws a retryable ProviderApiError when Chargebee answers 503', async () => {
    // Prepare
    fake.failNextWith(503);
    // Act
    const error = await chargebeeApi.fetchCustomer(credentials, 'AzZhUGSPAkLpyFQ1').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unavailable', status: 503, retryable: true });
  });

  it('throws an unauthorized ProviderApiError when the API key is refused', async () => {
    // Act
    const error = await chargebeeApi.fetchCustomer({ apiKey: `${CHARGEBEE_TEST_SITE}:test_wrong_key` }, 'AzZhUGSPAkLpyFQ1').catch((caught: unknown) => caught);
    // Assess
    expect(error).toMatchObject({ failure: 'unauthorized', status: 401, retryable: false });
  });

  it('throws an unauthorized ProviderApiError, without calling Chargebee or naming the key, when the key names no site', async () => {
    // Prepare
    const requestsBefore = fake.requests.length;
    // Act
    const errors = await Promise.all(
      [CHARGEBEE_TEST_SITE_API_KEY, `bad.site:${CHARGEBEE_TEST_SITE_API_KEY}`, `${CHARGEBEE_TEST_SITE}:`].map((apiKey) =>
        chargebeeApi.fetchCustomer({ apiKey }, 'AzZhUGSPAkLpyFQ1').catch((caught: unknown) => caught),
      ),
    );
    // Assess
    expect(errors.map((error) => (error as ProviderApiError).failure)).toEqual(['unauthorized', 'unauthorized', 'unauthorized']);
    expect(errors.map((error) => (error as Error).message).join(' ')).not.toContain(CHARGEBEE_TEST_SITE_API_KEY);
    expect(fake.requests.length).toBe(requestsBefore);
  });
});
