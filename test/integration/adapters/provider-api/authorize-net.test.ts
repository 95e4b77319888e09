/**
 * The Authorize.Net provider API adapter against a loopback fake of Authorize.Net's JSON API
 * (test/fakes): the base URL comes from AUTHORIZE_NET_API_BASE_URL, read at call time.
 * Transactions (getTransactionDetails), ARB subscriptions (ARBGetSubscription) and CIM payment
 * profiles (getCustomerProfile) are fetched.
 */
import { authorizeNetApi } from '#adapters/provider-api/authorize-net';
import {
  AUTHORIZE_NET_TEST_API_KEY,
  AUTHORIZE_NET_TEST_LOGIN_ID,
  AUTHORIZE_NET_TEST_TRANSACTION_KEY,
  type FakeAuthorizeNetApi,
  startFakeAuthorizeNetApi,
} from '#test/fakes/authorize-net-api';
import { fetchedPayment, fetchedPaymentMethod, fetchedSubscription } from './fetched';

describe('authorizeNetApi', () => {
  let fake: FakeAuthorizeNetApi;
  const credentials = { apiKey: AUTHORIZE_NET_TEST_API_KEY };

  beforeAll(async () => {
    fake = await startFakeAuthorizeNetApi();
    process.env.AUTHORIZE_NET_API_BASE_URL = fake.url;
  });
  afterAll(async () => {
    delete process.env.AUTHORIZE_NET_API_BASE_URL;
    await fake.stop();
  });

  it('maps a declined transaction to failed with its amount in cents, usd, the response reason code and the customer when fetching it', async () => {
    // Prepare
    fake.seedTransaction({
      transId: '60020981676',
      responseCode: 2,
      responseReasonCode: 2,
      authAmount: 45.0,
      customer: { id: 'CUST-881', email: 'ada.brooks@example.com' },
      billTo: { firstName: 'Ada', lastName: 'Brooks' },
      profile: { customerProfileId: '1813212446' },
      subscription: { id: 9017662, payNum: 3 },
      order: { invoiceNumber: 'INV-20260310' },
    });
    // Act
    const payment = await fetchedPayment(authorizeNetApi.fetchResource(credentials, { resource: 'transaction', id: '60020981676' }));
    // Assess
    expect(payment).toEqual({
      status: 'failed',
      providerPaymentId: '60020981676',
      amount: 4500,
      currency: 'usd',
      declineCode: '2',
      customer: { email: 'ada.brooks@example.com', name: 'Ada Brooks', providerCustomerId: '1813212446' },
      subscriptionId: '9017662',
      invoiceId: 'INV-20260310',
    });
    const [call] = fake.requests.slice(-1);
    expect(call).toMatchObject({
      method: 'POST',
      path: '/xml/v1/request.api',
      body: {
        getTransactionDetailsRequest: {
          merchantAuthentication: { name: AUTHORIZE_NET_TEST_LOGIN_ID, transactionKey: AUTHORIZE_NET_TEST_TRANSACTION_KEY },
          transId: '60020981676',
        },
      },
    });
  });

  it.each([
    [1, 'authCaptureTransaction', 'succeeded', undefined],
    [1, 'refundTransaction', 'refunded', undefined],
    [3, 'authCaptureTransaction', 'failed', '11'],
    [4, 'authCaptureTransaction', 'other', undefined],
  ] as const)('maps responseCode %d on a %s to %s when fetching the transaction', async (responseCode, transactionType, expected, declineCode) => {
    // Prepare
    const transId = `6002${responseCode}${transactionType.length}`;
    fake.seedTransaction({ transId, transactionType, responseCode, responseReasonCode: 11, authAmount: 19.99, customer: { email: 'status@example.com' } });
    // Act
    const payment = await fetchedPayment(authorizeNetApi.fetchResource(credentials, { resource: 'transaction', id: transId }));
    // Assess
    expect(payment).toMatchObject({ status: expected, amount: 1999, currency: 'usd' });
    expect(payment.declineCode).toBe(declineCode);
  });

  it('takes the currency from the transaction when it names one', async () => {
    // Prepare
    fake.seedTransaction({
      transId: '60020990001',
      responseCode: 2,
      responseReasonCode: 8,
      authAmount: 12.5,
      currencyCode: 'CAD',
      customer: { email: 'maple@example.ca' },
    });
    // Act
    const payment = await fetchedPayment(authorizeNetApi.fetchResource(credentials, { resource: 'transaction', id: '60020990001' }));
    // Assess
    expect(payment).toMatchObject({ amount: 1250, currency: 'cad', declineCode: '8' });
  });

  it('throws a not_found ProviderApiError when Authorize.Net answers E00040 for an unknown transaction', async () => {
    // Act
    const fetching = fetchedPayment(authorizeNetApi.fetchResource(credentials, { resource: 'transaction', id: '99999999999' }));
    // Assess
    await expect(fetching).rejects.toMatchObject({ name: 'ProviderApiError', failure: 'not_found', notFound: true });
  });

  it('throws an unauthorized ProviderApiError when Authorize.Net answers E00007 for a wrong transaction key', async () => {
    // Act
    const fetching = fetchedPayment(
      authorizeNetApi.fetchResource({ apiKey: `${AUTHORIZE_NET_TEST_LOGIN_ID}:wrongKey00000000` }, { resource: 'transaction', id: '60020981676' }),
    );
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unauthorized', retryable: false });
  });

  it('throws an unauthorized ProviderApiError without calling Authorize.Net when the stored key is not apiLoginId:transactionKey', async () => {
    // Prepare
    const requestsBefore = fake.requests.length;
    // Act
    const fetching = fetchedPayment(
      authorizeNetApi.fetchResource({ apiKey: AUTHORIZE_NET_TEST_TRANSACTION_KEY }, { resource: 'transaction', id: '60020981676' }),
    );
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unauthorized' });
    expect(fake.requests.length).toBe(requestsBefore);
  });

  it('throws a retryable ProviderApiError when Authorize.Net answers 503', async () => {
    // Prepare
    fake.failNextWith(503);
    // Act
    const fetching = fetchedPayment(authorizeNetApi.fetchResource(credentials, { resource: 'transaction', id: '60020981676' }));
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unavailable', retryable: true, status: 503 });
  });

  const auth = { name: AUTHORIZE_NET_TEST_LOGIN_ID, transactionKey: AUTHORIZE_NET_TEST_TRANSACTION_KEY };
  const oldCard = { customerPaymentProfileId: '1841987400', billTo: { firstName: 'Old', lastName: 'Card' } };
  const newCard = { customerPaymentProfileId: '1841987457', billTo: { firstName: 'Lena', lastName: 'Marsh' } };
  const profile = { customerProfileId: '1929820324', email: 'lena.marsh@example.com', paymentProfiles: [oldCard, newCard] };

  it('fetches the resources its webhook module names: transaction, subscription and customerPaymentProfile', () => {
    // Assess
    expect([...authorizeNetApi.resources].sort()).toEqual(['customerPaymentProfile', 'subscription', 'transaction']);
  });

  it('reads a canceled ARB subscription as ended, with its amount in cents, usd and the customer of its profile', async () => {
    // Prepare
    fake.seedSubscription({ id: '5227567', status: 'canceled', amount: 29.99, profile: { ...profile, paymentProfiles: [newCard] } });
    // Act
    const subscription = await fetchedSubscription(authorizeNetApi.fetchResource(credentials, { resource: 'subscription', id: '5227567' }));
    // Assess
    expect(subscription).toEqual({
      subscriptionId: '5227567',
      ended: true,
      amount: 2999,
      currency: 'usd',
      customer: { email: 'lena.marsh@example.com', name: 'Lena Marsh', providerCustomerId: '1929820324' },
    });
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/xml/v1/request.api',
      body: { ARBGetSubscriptionRequest: { merchantAuthentication: auth, subscriptionId: '5227567' } },
    });
  });

  it.each([
    ['terminated', true],
    ['expired', true],
    ['active', false],
    ['suspended', false],
  ] as const)('reads a %s ARB subscription as ended %s', async (status, ended) => {
    // Prepare
    const id = `52275${status.length}0`;
    fake.seedSubscription({ id, status, amount: 10, profile });
    // Act
    const subscription = await fetchedSubscription(authorizeNetApi.fetchResource(credentials, { resource: 'subscription', id }));
    // Assess
    expect(subscription).toMatchObject({ subscriptionId: id, ended, amount: 1000 });
  });

  it('throws a not_found ProviderApiError when Authorize.Net answers E00035 for an unknown subscription', async () => {
    // Act
    const fetching = authorizeNetApi.fetchResource(credentials, { resource: 'subscription', id: '9999999' });
    // Assess
    await expect(fetching).rejects.toMatchObject({ name: 'ProviderApiError', failure: 'not_found', notFound: true });
  });

  it('reduces a payment profile to the email of its customer profile and the name on that payment profile', async () => {
    // Prepare
    fake.seedCustomerProfile(profile);
    // Act
    const method = await fetchedPaymentMethod(authorizeNetApi.fetchResource(credentials, { resource: 'customerPaymentProfile', id: '1929820324/1841987457' }));
    // Assess
    expect(method).toEqual({ customer: { email: 'lena.marsh@example.com', name: 'Lena Marsh', providerCustomerId: '1929820324' } });
    expect(fake.requests.at(-1)).toMatchObject({ body: { getCustomerProfileRequest: { merchantAuthentication: auth, customerProfileId: '1929820324' } } });
  });

  it('throws a not_found ProviderApiError when the customer profile no longer lists the payment profile, or is unknown', async () => {
    // Prepare
    fake.seedCustomerProfile(profile);
    // Act
    const gone = authorizeNetApi
      .fetchResource(credentials, { resource: 'customerPaymentProfile', id: '1929820324/1841980000' })
      .catch((caught: unknown) => caught);
    const unknown = authorizeNetApi
      .fetchResource(credentials, { resource: 'customerPaymentProfile', id: '1000000001/1841987457' })
      .catch((caught: unknown) => caught);
    // Assess
    expect(await gone).toMatchObject({ name: 'ProviderApiError', failure: 'not_found' });
    expect(await unknown).toMatchObject({ name: 'ProviderApiError', failure: 'not_found' });
  });

  it('looks a customer profile up: its email and the name on its first payment profile, undefined without email', async () => {
    // Prepare
    fake.seedCustomerProfile(profile);
    fake.seedCustomerProfile({ customerProfileId: '1929820999', paymentProfiles: [] });
    // Act
    const found = await authorizeNetApi.fetchCustomer(credentials, '1929820324');
    const emailless = await authorizeNetApi.fetchCustomer(credentials, '1929820999');
    const unknown = await authorizeNetApi.fetchCustomer(credentials, '1000000002').catch((caught: unknown) => caught);
    // Assess
    expect(found).toEqual({ email: 'lena.marsh@example.com', name: 'Old Card' });
    expect(emailless).toBeUndefined();
    expect(unknown).toMatchObject({ failure: 'not_found' });
  });
});
