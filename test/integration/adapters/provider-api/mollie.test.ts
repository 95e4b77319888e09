/**
 * The Mollie provider API adapter against a loopback fake of Mollie's API (test/fakes): the base
 * URL comes from MOLLIE_API_BASE_URL, read at call time. Payments are fetched by id; chargebacks
 * and refunds under their payment (`<payment id>/<id>`), with the payment for its customer.
 */
import { mollieApi } from '#adapters/provider-api/mollie';
import { ProviderApiError } from '#core/provider-api';
import { type FakeMollieApi, MOLLIE_TEST_API_KEY, startFakeMollieApi } from '#test/fakes/mollie-api';
import { fetchedPayment, fetchedRefund } from './fetched';

describe('mollieApi', () => {
  let fake: FakeMollieApi;
  const credentials = { apiKey: MOLLIE_TEST_API_KEY };

  beforeAll(async () => {
    fake = await startFakeMollieApi();
    process.env.MOLLIE_API_BASE_URL = fake.url;
  });
  afterAll(async () => {
    delete process.env.MOLLIE_API_BASE_URL;
    await fake.stop();
  });

  it('maps a failed card payment to minor units, a lowercase currency, its failureReason and the customer it fetches when the payment has no billing email', async () => {
    // Prepare
    fake.seedPayment({
      id: 'tr_unitFailed1',
      status: 'failed',
      amount: { value: '12.50', currency: 'EUR' },
      customerId: 'cst_unit1',
      subscriptionId: 'sub_unit1',
      details: { failureReason: 'card_expired' },
    });
    fake.seedCustomer({ id: 'cst_unit1', name: 'Jan de Vries', email: 'jan@example.nl' });
    // Act
    const payment = await fetchedPayment(mollieApi.fetchResource(credentials, { resource: 'payment', id: 'tr_unitFailed1' }));
    // Assess
    expect(payment).toEqual({
      status: 'failed',
      providerPaymentId: 'tr_unitFailed1',
      amount: 1250,
      currency: 'eur',
      declineCode: 'card_expired',
      customer: { email: 'jan@example.nl', name: 'Jan de Vries', providerCustomerId: 'cst_unit1' },
      subscriptionId: 'sub_unit1',
    });
    expect(fake.requests.filter((r) => r.path.endsWith('tr_unitFailed1') || r.path.endsWith('cst_unit1')).map((r) => r.headers.authorization)).toEqual([
      `Bearer ${MOLLIE_TEST_API_KEY}`,
      `Bearer ${MOLLIE_TEST_API_KEY}`,
    ]);
  });

  it('takes the SEPA bankReasonCode as decline code when a direct debit failed, without fetching a customer when the billing address has the email', async () => {
    // Prepare
    fake.seedPayment({
      id: 'tr_unitSepa1',
      status: 'failed',
      amount: { value: '5.00', currency: 'EUR' },
      customerId: 'cst_unused',
      details: { bankReasonCode: 'AM04', consumerName: 'A. Jansen' },
      billingAddress: { email: 'a.jansen@example.nl' },
    });
    // Act
    const payment = await fetchedPayment(mollieApi.fetchResource(credentials, { resource: 'payment', id: 'tr_unitSepa1' }));
    // Assess
    expect(payment).toMatchObject({
      status: 'failed',
      amount: 500,
      declineCode: 'AM04',
      customer: { email: 'a.jansen@example.nl', name: 'A. Jansen', providerCustomerId: 'cst_unused' },
    });
    expect(fake.requests.some((r) => r.path === '/v2/customers/cst_unused')).toBe(false);
  });

  it.each([
    ['paid', undefined, 'succeeded'],
    ['paid', { value: '2.00', currency: 'EUR' }, 'refunded'],
    ['paid', { value: '0.00', currency: 'EUR' }, 'succeeded'],
    ['open', undefined, 'other'],
    ['expired', undefined, 'other'],
  ] as const)('maps status %s (amountRefunded %j) to %s when fetching the payment', async (status, amountRefunded, expected) => {
    // Prepare
    const id = `tr_unit${status}${amountRefunded?.value.replace('.', '') ?? 'none'}`;
    fake.seedPayment({
      id,
      status,
      amount: { value: '10.00', currency: 'EUR' },
      amountRefunded,
      billingAddress: { email: 'x@example.nl' },
      details: { failureReason: 'ignored_when_not_failed' },
    });
    // Act
    const payment = await fetchedPayment(mollieApi.fetchResource(credentials, { resource: 'payment', id }));
    // Assess
    expect(payment.status).toBe(expected);
    expect(payment.declineCode).toBeUndefined();
  });

  it('throws a not_found ProviderApiError when the payment is unknown', async () => {
    // Act
    const fetching = fetchedPayment(mollieApi.fetchResource(credentials, { resource: 'payment', id: 'tr_unknown0001' }));
    // Assess
    await expect(fetching).rejects.toMatchObject({ name: 'ProviderApiError', failure: 'not_found', notFound: true, retryable: false, status: 404 });
  });

  it('throws a retryable ProviderApiError when Mollie answers 503', async () => {
    // Prepare
    fake.seedPayment({ id: 'tr_unit503', status: 'failed', amount: { value: '1.00', currency: 'EUR' }, billingAddress: { email: 'x@example.nl' } });
    fake.failNextWith(503);
    // Act
    const fetching = fetchedPayment(mollieApi.fetchResource(credentials, { resource: 'payment', id: 'tr_unit503' }));
    // Assess
    await expect(fetching).rejects.toBeInstanceOf(ProviderApiError);
    await expect(fetchedPayment(mollieApi.fetchResource(credentials, { resource: 'payment', id: 'tr_unit503' }))).resolves.toMatchObject({
      status: 'failed',
      amount: 100,
    });
  });

  it('throws an unauthorized ProviderApiError whose message does not contain the key when the key is refused', async () => {
    // Act
    const error = (await fetchedPayment(mollieApi.fetchResource({ apiKey: 'test_wrong_key_000000000000000' }, { resource: 'payment', id: 'tr_unit503' })).catch(
      (caught: unknown) => caught,
    )) as ProviderApiError;
    // Assess
    expect(error).toMatchObject({ failure: 'unauthorized', retryable: false, status: 401 });
    expect(error.message).not.toContain('test_wrong_key');
  });

  it('throws a retryable ProviderApiError when nothing listens at the base URL', async () => {
    // Prepare
    process.env.MOLLIE_API_BASE_URL = 'http://127.0.0.1:9';
    // Act
    const fetching = fetchedPayment(mollieApi.fetchResource(credentials, { resource: 'payment', id: 'tr_unit503' }));
    // Assess
    try {
      await expect(fetching).rejects.toMatchObject({ failure: 'unavailable', retryable: true });
    } finally {
      process.env.MOLLIE_API_BASE_URL = fake.url;
    }
  });

  it('looks a customer up by id: its email and name, undefined without email, not_found for an unknown one', async () => {
    // Prepare
    fake.seedCustomer({ id: 'cst_lookup1', name: 'Piet Hein', email: 'piet@example.nl' });
    fake.seedCustomer({ id: 'cst_lookup2', name: 'Zonder Email' });
    // Act
    const found = await mollieApi.fetchCustomer(credentials, 'cst_lookup1');
    const emailless = await mollieApi.fetchCustomer(credentials, 'cst_lookup2');
    const unknown = await mollieApi.fetchCustomer(credentials, 'cst_unknown').catch((caught: unknown) => caught);
    // Assess
    expect(found).toEqual({ email: 'piet@example.nl', name: 'Piet Hein' });
    expect(emailless).toBeUndefined();
    expect(unknown).toBeInstanceOf(ProviderApiError);
    expect(unknown).toMatchObject({ failure: 'not_found', status: 404 });
  });

  it('fetches the resources its webhook module names: payment, chargeback and refund', () => {
    // Assess
    expect([...mollieApi.resources].sort()).toEqual(['chargeback', 'payment', 'refund']);
  });

  it("reads a chargeback as its payment failing, with the amount charged back, the reason code and the payment's customer and subscription", async () => {
    // Prepare
    fake.seedPayment({
      id: 'tr_unitCharged',
      status: 'paid',
      amount: { value: '25.00', currency: 'EUR' },
      customerId: 'cst_charged',
      subscriptionId: 'sub_charged',
      details: { consumerName: 'K. Visser' },
    });
    fake.seedCustomer({ id: 'cst_charged', name: 'Kees Visser', email: 'kees@example.nl' });
    fake.seedChargeback({
      id: 'chb_unit1',
      paymentId: 'tr_unitCharged',
      amount: { value: '25.00', currency: 'EUR' },
      reason: { code: 'MD06', description: 'Refund request by end customer' },
    });
    const requestsBefore = fake.requests.length;
    // Act
    const payment = await fetchedPayment(mollieApi.fetchResource(credentials, { resource: 'chargeback', id: 'tr_unitCharged/chb_unit1' }));
    // Assess
    expect(payment).toEqual({
      status: 'failed',
      providerPaymentId: 'tr_unitCharged',
      amount: 2500,
      currency: 'eur',
      declineCode: 'MD06',
      customer: { email: 'kees@example.nl', name: 'K. Visser', providerCustomerId: 'cst_charged' },
      subscriptionId: 'sub_charged',
    });
    expect(fake.requests.slice(requestsBefore).map((r) => r.path)).toEqual([
      '/v2/payments/tr_unitCharged/chargebacks/chb_unit1',
      '/v2/payments/tr_unitCharged',
      '/v2/customers/cst_charged',
    ]);
  });

  it("reduces a refund to its payment, the amount given back and the payment's customer", async () => {
    // Prepare
    fake.seedPayment({
      id: 'tr_unitRefunded',
      status: 'paid',
      amount: { value: '30.00', currency: 'EUR' },
      amountRefunded: { value: '12.50', currency: 'EUR' },
      billingAddress: { email: 'refund@example.nl' },
    });
    fake.seedRefund({ id: 're_unit1', paymentId: 'tr_unitRefunded', amount: { value: '12.50', currency: 'EUR' } });
    // Act
    const refund = await fetchedRefund(mollieApi.fetchResource(credentials, { resource: 'refund', id: 'tr_unitRefunded/re_unit1' }));
    // Assess
    expect(refund).toEqual({ providerPaymentId: 'tr_unitRefunded', amount: 1250, currency: 'eur', customer: { email: 'refund@example.nl' } });
    expect(fake.requests.at(-2)?.path).toBe('/v2/payments/tr_unitRefunded/refunds/re_unit1');
  });

  it('throws a not_found ProviderApiError when the refund is not under the payment its id names', async () => {
    // Prepare
    fake.seedRefund({ id: 're_unit2', paymentId: 'tr_unitRefunded', amount: { value: '1.00', currency: 'EUR' } });
    // Act
    const fetching = mollieApi.fetchResource(credentials, { resource: 'refund', id: 'tr_unitOther/re_unit2' });
    // Assess
    await expect(fetching).rejects.toMatchObject({ name: 'ProviderApiError', failure: 'not_found', status: 404 });
  });

  it('refuses, without calling Mollie, a refund id that does not name its payment and a resource it does not fetch', async () => {
    // Prepare
    const requestsBefore = fake.requests.length;
    // Act
    const bare = mollieApi.fetchResource(credentials, { resource: 'refund', id: 're_unit2' }).catch((caught: unknown) => caught);
    const unknown = mollieApi.fetchResource(credentials, { resource: 'subscription', id: 'sub_unit1' }).catch((caught: unknown) => caught);
    // Assess
    expect(await bare).toEqual(new Error('a mollie refund is fetched as "<payment id>/<re_ id>"'));
    expect(await unknown).toEqual(new Error('the mollie API adapter fetches no "subscription"'));
    expect(fake.requests.length).toBe(requestsBefore);
  });
});
