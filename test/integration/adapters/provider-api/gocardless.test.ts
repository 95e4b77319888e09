/**
 * The GoCardless provider API adapter against a loopback fake of GoCardless's API (test/fakes):
 * the base URL comes from GOCARDLESS_API_BASE_URL, read at call time. Payments, mandates,
 * subscriptions and refunds are fetched, each with the customer behind its mandate.
 */
import { GOCARDLESS_VERSION, gocardlessApi } from '#adapters/provider-api/gocardless';
import { type FakeGoCardlessApi, GOCARDLESS_TEST_ACCESS_TOKEN, startFakeGoCardlessApi } from '#test/fakes/gocardless-api';
import { fetchedPayment, fetchedPaymentMethod, fetchedRefund, fetchedSubscription } from './fetched';

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
    const payment = await fetchedPayment(gocardlessApi.fetchResource(credentials, { resource: 'payment', id: 'PM00UNIT1' }));
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
    expect(calls.map((r) => [r.headers.authorization, r.headers['gocardless-version']])).toEqual(
      Array(3).fill([`Bearer ${GOCARDLESS_TEST_ACCESS_TOKEN}`, GOCARDLESS_VERSION]),
    );
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
    const payment = await fetchedPayment(gocardlessApi.fetchResource(credentials, { resource: 'payment', id }));
    // Assess
    expect(payment).toMatchObject({ status: expected, amount: 1000, currency: 'eur' });
  });

  it('throws a not_found ProviderApiError when the payment is unknown', async () => {
    // Act
    const fetching = fetchedPayment(gocardlessApi.fetchResource(credentials, { resource: 'payment', id: 'PM00NOPE' }));
    // Assess
    await expect(fetching).rejects.toMatchObject({ name: 'ProviderApiError', failure: 'not_found', status: 404 });
  });

  it('throws a retryable ProviderApiError when GoCardless answers 503', async () => {
    // Prepare
    fake.failNextWith(503);
    // Act
    const fetching = fetchedPayment(gocardlessApi.fetchResource(credentials, { resource: 'payment', id: 'PM00UNIT1' }));
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unavailable', retryable: true, status: 503 });
  });

  it('throws an unauthorized ProviderApiError when the access token is refused', async () => {
    // Act
    const fetching = fetchedPayment(gocardlessApi.fetchResource({ apiKey: 'sandbox_wrong' }, { resource: 'payment', id: 'PM00UNIT1' }));
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unauthorized', retryable: false, status: 401 });
  });

  it('fetches the resources its webhook module names: payment, mandate, subscription and refund', () => {
    // Assess
    expect([...gocardlessApi.resources].sort()).toEqual(['mandate', 'payment', 'refund', 'subscription']);
  });

  it('reduces a mandate to a payment method owned by the customer it links when fetching it', async () => {
    // Prepare
    fake.seedMandate('MD00NEW1', 'CU00UNIT1');
    const requestsBefore = fake.requests.length;
    // Act
    const method = await fetchedPaymentMethod(gocardlessApi.fetchResource(credentials, { resource: 'mandate', id: 'MD00NEW1' }));
    // Assess
    expect(method).toEqual({ customer: { email: 'olive@example.co.uk', name: 'Olive Hart', providerCustomerId: 'CU00UNIT1' } });
    expect(fake.requests.slice(requestsBefore).map((r) => r.path)).toEqual(['/mandates/MD00NEW1', '/customers/CU00UNIT1']);
  });

  it.each([
    ['cancelled', true],
    ['finished', true],
    ['active', false],
    ['paused', false],
  ] as const)('reads a %s subscription as ended %s, with its amount, currency and the customer behind its mandate', async (status, ended) => {
    // Prepare
    const id = `SB00${status.toUpperCase()}`;
    fake.seedSubscription({ id, amount: 1500, currency: 'GBP', status, links: { mandate: 'MD00UNIT1' } });
    // Act
    const subscription = await fetchedSubscription(gocardlessApi.fetchResource(credentials, { resource: 'subscription', id }));
    // Assess
    expect(subscription).toEqual({
      subscriptionId: id,
      ended,
      amount: 1500,
      currency: 'gbp',
      customer: { email: 'olive@example.co.uk', name: 'Olive Hart', providerCustomerId: 'CU00UNIT1' },
    });
  });

  it('reduces a refund to the refunded payment, the amount given back and the customer behind its mandate', async () => {
    // Prepare
    fake.seedRefund({ id: 'RF00UNIT1', amount: 700, currency: 'GBP', links: { payment: 'PM00UNIT1', mandate: 'MD00UNIT1' } });
    const requestsBefore = fake.requests.length;
    // Act
    const refund = await fetchedRefund(gocardlessApi.fetchResource(credentials, { resource: 'refund', id: 'RF00UNIT1' }));
    // Assess
    expect(refund).toEqual({
      providerPaymentId: 'PM00UNIT1',
      amount: 700,
      currency: 'gbp',
      customer: { email: 'olive@example.co.uk', name: 'Olive Hart', providerCustomerId: 'CU00UNIT1' },
    });
    expect(fake.requests.slice(requestsBefore).map((r) => r.path)).toEqual(['/refunds/RF00UNIT1', '/mandates/MD00UNIT1', '/customers/CU00UNIT1']);
  });

  it("finds a refund's customer through the refunded payment's mandate when the refund links none", async () => {
    // Prepare
    fake.seedPayment({ id: 'PM00REFD2', amount: 900, currency: 'EUR', status: 'paid_out', links: { mandate: 'MD00UNIT1' } });
    fake.seedRefund({ id: 'RF00UNIT2', amount: 900, currency: 'EUR', links: { payment: 'PM00REFD2' } });
    const requestsBefore = fake.requests.length;
    // Act
    const refund = await fetchedRefund(gocardlessApi.fetchResource(credentials, { resource: 'refund', id: 'RF00UNIT2' }));
    // Assess
    expect(refund).toMatchObject({ providerPaymentId: 'PM00REFD2', amount: 900, currency: 'eur', customer: { email: 'olive@example.co.uk' } });
    expect(fake.requests.slice(requestsBefore).map((r) => r.path)).toEqual([
      '/refunds/RF00UNIT2',
      '/payments/PM00REFD2',
      '/mandates/MD00UNIT1',
      '/customers/CU00UNIT1',
    ]);
  });

  it('throws a not_found ProviderApiError when the subscription, mandate or refund is unknown', async () => {
    // Act
    const fetches = ['subscription', 'mandate', 'refund'].map((resource) =>
      gocardlessApi.fetchResource(credentials, { resource, id: 'XX00NOPE' }).catch((caught: unknown) => caught),
    );
    // Assess
    expect(await Promise.all(fetches)).toEqual([
      expect.objectContaining({ failure: 'not_found', status: 404 }),
      expect.objectContaining({ failure: 'not_found' }),
      expect.objectContaining({ failure: 'not_found' }),
    ]);
  });

  it('looks a customer up by id: its email and name, undefined without email, not_found for an unknown one', async () => {
    // Prepare
    fake.seedCustomer({ id: 'CU00COMPANY', email: 'accounts@harbour.example', company_name: 'Harbour Ltd' });
    fake.seedCustomer({ id: 'CU00NOEMAIL', given_name: 'Ned', family_name: 'Mail' });
    // Act
    const found = await gocardlessApi.fetchCustomer(credentials, 'CU00COMPANY');
    const emailless = await gocardlessApi.fetchCustomer(credentials, 'CU00NOEMAIL');
    const unknown = await gocardlessApi.fetchCustomer(credentials, 'CU00UNKNOWN').catch((caught: unknown) => caught);
    // Assess
    expect(found).toEqual({ email: 'accounts@harbour.example', name: 'Harbour Ltd' });
    expect(emailless).toBeUndefined();
    expect(unknown).toMatchObject({ name: 'ProviderApiError', failure: 'not_found', status: 404 });
    expect(fake.requests.at(-1)?.path).toBe('/customers/CU00UNKNOWN');
  });
});
