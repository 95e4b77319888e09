/**
 * The GoCardless provider API adapter against a loopback fake of GoCardless's API (test/fakes):
 * the base URL comes from GOCARDLESS_API_BASE_URL, read at call time.
 */
import { GOCARDLESS_VERSION, gocardlessApi } from '../../../../functions/adapters/provider-api/gocardless';
import { type FakeGoCardlessApi, GOCARDLESS_TEST_ACCESS_TOKEN, startFakeGoCardlessApi } from '../../../fakes/gocardless-api';

describe('gocardlessApi', () => {
  let fake: FakeGoCardlessApi;
  const credentials = { apiKey: GOCARDLESS_TEST_ACCESS_TOKEN };

  beforeAll(async () => {
    fake = await startFakeGoCardlessApi();
    process.env.GOCARDLESS_API_BASE_URL = fake.url;
    fake.seedMandate('MD00UNIT1', 'CU00UNIT1');
    fake.seedCustomer({ id: 'CU00UNIT1', email: 'olive@example.co.uk', given_name: 'Olive', family_name: 'Hart' });
  });
  afterAll(async () => {
    delete process.env.GOCARDLESS_API_BASE_URL;
    await fake.stop();
  });

  it('maps a failed payment with its amount in pence, a lowercase currency and the customer behind its mandate when fetching it', async () => {
    // Prepare
    fake.seedPayment({ id: 'PM00UNIT1', amount: 2500, currency: 'GBP', status: 'failed', links: { mandate: 'MD00UNIT1', subscription: 'SB00UNIT1' } });
    // Act
    const payment = await gocardlessApi.fetchPayment(credentials, 'PM00UNIT1');
    // Assess
    expect(payment).toEqual({
      status: 'failed',
      providerPaymentId: 'PM00UNIT1',
      amount: 2500,
      currency: 'gbp',
      customer: { email: 'olive@example.co.uk', name: 'Olive Hart', providerCustomerId: 'CU00UNIT1' },
      subscriptionId: 'SB00UNIT1',
    });
    const calls = fake.requests.slice(-3);
    expect(calls.map((r) => r.path)).toEqual(['/payments/PM00UNIT1', '/mandates/MD00UNIT1', '/customers/CU00UNIT1']);
    expect(calls.map((r) => [r.headers.authorization, r.headers['gocardless-version']])).toEqual(Array(3).fill([`Bearer ${GOCARDLESS_TEST_ACCESS_TOKEN}`, GOCARDLESS_VERSION]));
  });

  it.each([
    ['charged_back', 0, 'failed'],
    ['confirmed', 0, 'succeeded'],
    ['paid_out', 0, 'succeeded'],
    ['paid_out', 500, 'refunded'],
    ['pending_submission', 0, 'other'],
    ['cancelled', 0, 'other'],
  ] as const)('maps status %s (amount_refunded %d) to %s when fetching the payment', async (status, refunded, expected) => {
    // Prepare
    const id = `PM00${status.toUpperCase()}${refunded}`;
    fake.seedPayment({ id, amount: 1000, amount_refunded: refunded, currency: 'EUR', status, links: { mandate: 'MD00UNIT1' } });
    // Act
    const payment = await gocardlessApi.fetchPayment(credentials, id);
    // Assess
    expect(payment).toMatchObject({ status: expected, amount: 1000, currency: 'eur' });
  });

  it('throws a not_found ProviderApiError when the payment is unknown', async () => {
    // Act
    const fetching = gocardlessApi.fetchPayment(credentials, 'PM00NOPE');
    // Assess
    await expect(fetching).rejects.toMatchObject({ name: 'ProviderApiError', failure: 'not_found', status: 404 });
  });

  it('throws a retryable ProviderApiError when GoCardless answers 503', async () => {
    // Prepare
    fake.failNextWith(503);
    // Act
    const fetching = gocardlessApi.fetchPayment(credentials, 'PM00UNIT1');
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unavailable', retryable: true, status: 503 });
  });

  it('throws an unauthorized ProviderApiError when the access token is refused', async () => {
    // Act
    const fetching = gocardlessApi.fetchPayment({ apiKey: 'sandbox_wrong' }, 'PM00UNIT1');
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unauthorized', retryable: false, status: 401 });
  });
});
