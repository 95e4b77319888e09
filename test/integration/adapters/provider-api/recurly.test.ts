/**
 * The Recurly provider API adapter against a loopback fake of Recurly's v3 API (test/fakes): the
 * base URL comes from RECURLY_API_BASE_URL, read at call time.
 */
import { RECURLY_API_ACCEPT, recurlyApi } from '../../../../functions/adapters/provider-api/recurly';
import { type FakeRecurlyApi, RECURLY_TEST_API_KEY, startFakeRecurlyApi } from '../../../fakes/recurly-api';

describe('recurlyApi', () => {
  let fake: FakeRecurlyApi;
  const credentials = { apiKey: RECURLY_TEST_API_KEY };
  const account = { id: 'o1pkslz0b2ta', code: 'acct-3141', email: 'noor.haddad@example.com', first_name: 'Noor', last_name: 'Haddad' };

  beforeAll(async () => {
    fake = await startFakeRecurlyApi();
    process.env.RECURLY_API_BASE_URL = fake.url;
  });
  afterAll(async () => {
    delete process.env.RECURLY_API_BASE_URL;
    await fake.stop();
  });

  it('maps a declined transaction to failed with its amount in cents, a lowercase currency, the status code and the account when fetching it by uuid', async () => {
    // Prepare
    fake.seedTransaction({
      id: 'rt7q0kzbtnqz',
      uuid: '6c0a2f1e9d8b4a7c5e3f1a2b3c4d5e6f',
      status: 'declined',
      status_code: 'insufficient_funds',
      gateway_response_code: '51',
      amount: 29.99,
      currency: 'USD',
      account,
      invoice: { id: 'rinv1x2y3z4', number: '1042' },
      subscription_ids: ['rsub9a8b7c6d'],
    });
    // Act
    const payment = await recurlyApi.fetchPayment(credentials, 'uuid-6c0a2f1e9d8b4a7c5e3f1a2b3c4d5e6f');
    // Assess
    expect(payment).toEqual({
      status: 'failed',
      providerPaymentId: '6c0a2f1e9d8b4a7c5e3f1a2b3c4d5e6f',
      amount: 2999,
      currency: 'usd',
      declineCode: 'insufficient_funds',
      customer: { email: 'noor.haddad@example.com', name: 'Noor Haddad', providerCustomerId: 'acct-3141' },
      subscriptionId: 'rsub9a8b7c6d',
      invoiceId: 'rinv1x2y3z4',
    });
    const [call] = fake.requests.slice(-1);
    expect(call?.path).toBe('/transactions/uuid-6c0a2f1e9d8b4a7c5e3f1a2b3c4d5e6f');
    expect([call?.headers.authorization, call?.headers.accept]).toEqual([`Basic ${Buffer.from(`${RECURLY_TEST_API_KEY}:`).toString('base64')}`, RECURLY_API_ACCEPT]);
  });

  it.each([
    ['error', 'purchase', 'failed'],
    ['success', 'purchase', 'succeeded'],
    ['success', 'refund', 'refunded'],
    ['void', 'purchase', 'other'],
    ['pending', 'purchase', 'other'],
  ] as const)('maps status %s on a %s to %s when fetching the transaction', async (status, type, expected) => {
    // Prepare
    const uuid = `${status}${type}`.padEnd(32, '0');
    fake.seedTransaction({ id: `rt-${status}-${type}`, uuid, type, status, amount: 1000, currency: 'JPY', account });
    // Act
    const payment = await recurlyApi.fetchPayment(credentials, `uuid-${uuid}`);
    // Assess
    expect(payment).toMatchObject({ status: expected, amount: 1000, currency: 'jpy' });
  });

  it('takes the gateway response code as decline code when the transaction has no status code', async () => {
    // Prepare
    fake.seedTransaction({ id: 'rtgateway01', uuid: 'a'.repeat(32), status: 'declined', gateway_response_code: '05', amount: 5, currency: 'EUR', account });
    // Act
    const payment = await recurlyApi.fetchPayment(credentials, `uuid-${'a'.repeat(32)}`);
    // Assess
    expect(payment).toMatchObject({ status: 'failed', amount: 500, currency: 'eur', declineCode: '05' });
  });

  it('throws a not_found ProviderApiError when the transaction is unknown', async () => {
    // Act
    const fetching = recurlyApi.fetchPayment(credentials, `uuid-${'f'.repeat(32)}`);
    // Assess
    await expect(fetching).rejects.toMatchObject({ name: 'ProviderApiError', failure: 'not_found', status: 404 });
  });

  it('throws a retryable ProviderApiError when Recurly answers 429', async () => {
    // Prepare
    fake.failNextWith(429);
    // Act
    const fetching = recurlyApi.fetchPayment(credentials, 'uuid-6c0a2f1e9d8b4a7c5e3f1a2b3c4d5e6f');
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unavailable', retryable: true, status: 429 });
  });

  it('throws an unauthorized ProviderApiError when the API key is refused', async () => {
    // Act
    const fetching = recurlyApi.fetchPayment({ apiKey: 'wrong-key' }, 'uuid-6c0a2f1e9d8b4a7c5e3f1a2b3c4d5e6f');
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unauthorized', retryable: false, status: 401 });
  });
});
