/**
 * The Recurly provider API adapter against a loopback fake of Recurly's v3 API (test/fakes): the
 * base URL comes from RECURLY_API_BASE_URL, read at call time. Transactions and subscriptions are
 * fetched by `uuid-…`, accounts by `code-…`.
 */
import { RECURLY_API_ACCEPT, recurlyApi } from '#adapters/provider-api/recurly';
import { type FakeRecurlyApi, RECURLY_TEST_API_KEY, startFakeRecurlyApi } from '#test/fakes/recurly-api';
import { fetchedPayment, fetchedPaymentMethod, fetchedSubscription } from './fetched';

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
    const payment = await fetchedPayment(recurlyApi.fetchResource(credentials, { resource: 'transaction', id: 'uuid-6c0a2f1e9d8b4a7c5e3f1a2b3c4d5e6f' }));
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
    expect([call?.headers.authorization, call?.headers.accept]).toEqual([
      `Basic ${Buffer.from(`${RECURLY_TEST_API_KEY}:`).toString('base64')}`,
      RECURLY_API_ACCEPT,
    ]);
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
    const payment = await fetchedPayment(recurlyApi.fetchResource(credentials, { resource: 'transaction', id: `uuid-${uuid}` }));
    // Assess
    expect(payment).toMatchObject({ status: expected, amount: 1000, currency: 'jpy' });
  });

  it('takes the gateway response code as decline code when the transaction has no status code', async () => {
    // Prepare
    fake.seedTransaction({ id: 'rtgateway01', uuid: 'a'.repeat(32), status: 'declined', gateway_response_code: '05', amount: 5, currency: 'EUR', account });
    // Act
    const payment = await fetchedPayment(recurlyApi.fetchResource(credentials, { resource: 'transaction', id: `uuid-${'a'.repeat(32)}` }));
    // Assess
    expect(payment).toMatchObject({ status: 'failed', amount: 500, currency: 'eur', declineCode: '05' });
  });

  it('throws a not_found ProviderApiError when the transaction is unknown', async () => {
    // Act
    const fetching = fetchedPayment(recurlyApi.fetchResource(credentials, { resource: 'transaction', id: `uuid-${'f'.repeat(32)}` }));
    // Assess
    await expect(fetching).rejects.toMatchObject({ name: 'ProviderApiError', failure: 'not_found', status: 404 });
  });

  it('throws a retryable ProviderApiError when Recurly answers 429', async () => {
    // Prepare
    fake.failNextWith(429);
    // Act
    const fetching = fetchedPayment(recurlyApi.fetchResource(credentials, { resource: 'transaction', id: 'uuid-6c0a2f1e9d8b4a7c5e3f1a2b3c4d5e6f' }));
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unavailable', retryable: true, status: 429 });
  });

  it('throws an unauthorized ProviderApiError when the API key is refused', async () => {
    // Act
    const fetching = fetchedPayment(
      recurlyApi.fetchResource({ apiKey: 'wrong-key' }, { resource: 'transaction', id: 'uuid-6c0a2f1e9d8b4a7c5e3f1a2b3c4d5e6f' }),
    );
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unauthorized', retryable: false, status: 401 });
  });

  it('fetches the resources its webhook module names: transaction, subscription and account', () => {
    // Assess
    expect([...recurlyApi.resources].sort()).toEqual(['account', 'subscription', 'transaction']);
  });

  it.each([
    ['canceled', true],
    ['expired', true],
    ['failed', true],
    ['active', false],
    ['paused', false],
  ] as const)('reads a %s subscription fetched by uuid as ended %s, under its id (as transactions name it) with its account', async (state, ended) => {
    // Prepare
    const uuid = `${state}`.padEnd(32, '0');
    fake.seedSubscription({ id: `rsub${state}`, uuid, state, currency: 'USD', unit_amount: 19, account });
    // Act
    const subscription = await fetchedSubscription(recurlyApi.fetchResource(credentials, { resource: 'subscription', id: `uuid-${uuid}` }));
    // Assess
    expect(subscription).toEqual({
      subscriptionId: `rsub${state}`,
      ended,
      customer: { email: 'noor.haddad@example.com', name: 'Noor Haddad', providerCustomerId: 'acct-3141' },
    });
    expect(fake.requests.at(-1)?.path).toBe(`/subscriptions/uuid-${uuid}`);
  });

  it('reduces an account fetched by code to a payment method owned by that account', async () => {
    // Prepare
    fake.seedAccount(account);
    // Act
    const method = await fetchedPaymentMethod(recurlyApi.fetchResource(credentials, { resource: 'account', id: 'code-acct-3141' }));
    // Assess
    expect(method).toEqual({ customer: { email: 'noor.haddad@example.com', name: 'Noor Haddad', providerCustomerId: 'acct-3141' } });
    expect(fake.requests.at(-1)?.path).toBe('/accounts/code-acct-3141');
  });

  it('throws a not_found ProviderApiError when the subscription or account is unknown', async () => {
    // Act
    const subscription = recurlyApi.fetchResource(credentials, { resource: 'subscription', id: `uuid-${'e'.repeat(32)}` }).catch((caught: unknown) => caught);
    const unknownAccount = recurlyApi.fetchResource(credentials, { resource: 'account', id: 'code-nobody' }).catch((caught: unknown) => caught);
    // Assess
    expect(await subscription).toMatchObject({ name: 'ProviderApiError', failure: 'not_found', status: 404 });
    expect(await unknownAccount).toMatchObject({ name: 'ProviderApiError', failure: 'not_found', status: 404 });
  });

  it('looks an account up by its code: its email and name, undefined without email', async () => {
    // Prepare
    fake.seedAccount({ id: 'o1pkslz0bcmp', code: 'acct-company', email: 'billing@dunes.example', company: 'Dunes Ltd' });
    fake.seedAccount({ id: 'o1pkslz0bnoe', code: 'acct-no-email', first_name: 'Nils' });
    // Act
    const found = await recurlyApi.fetchCustomer(credentials, 'acct-company');
    const emailless = await recurlyApi.fetchCustomer(credentials, 'acct-no-email');
    // Assess
    expect(found).toEqual({ email: 'billing@dunes.example', name: 'Dunes Ltd' });
    expect(emailless).toBeUndefined();
    expect(fake.requests.at(-1)?.path).toBe('/accounts/code-acct-no-email');
  });
});
