/**
 * The Authorize.Net provider API adapter against a loopback fake of Authorize.Net's JSON API
 * (test/fakes): the base URL comes from AUTHORIZE_NET_API_BASE_URL, read at call time.
 */
import { authorizeNetApi } from '../../../../functions/adapters/provider-api/authorize-net';
import { AUTHORIZE_NET_TEST_API_KEY, AUTHORIZE_NET_TEST_LOGIN_ID, AUTHORIZE_NET_TEST_TRANSACTION_KEY, type FakeAuthorizeNetApi, startFakeAuthorizeNetApi } from '../../../fakes/authorize-net-api';

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
    const payment = await authorizeNetApi.fetchPayment(credentials, '60020981676');
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
      body: { getTransactionDetailsRequest: { merchantAuthentication: { name: AUTHORIZE_NET_TEST_LOGIN_ID, transactionKey: AUTHORIZE_NET_TEST_TRANSACTION_KEY }, transId: '60020981676' } },
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
    const payment = await authorizeNetApi.fetchPayment(credentials, transId);
    // Assess
    expect(payment).toMatchObject({ status: expected, amount: 1999, currency: 'usd' });
    expect(payment.declineCode).toBe(declineCode);
  });

  it('takes the currency from the transaction when it names one', async () => {
    // Prepare
    fake.seedTransaction({ transId: '60020990001', responseCode: 2, responseReasonCode: 8, authAmount: 12.5, currencyCode: 'CAD', customer: { email: 'maple@example.ca' } });
    // Act
    const payment = await authorizeNetApi.fetchPayment(credentials, '60020990001');
    // Assess
    expect(payment).toMatchObject({ amount: 1250, currency: 'cad', declineCode: '8' });
  });

  it('throws a not_found ProviderApiError when Authorize.Net answers E00040 for an unknown transaction', async () => {
    // Act
    const fetching = authorizeNetApi.fetchPayment(credentials, '99999999999');
    // Assess
    await expect(fetching).rejects.toMatchObject({ name: 'ProviderApiError', failure: 'not_found', notFound: true });
  });

  it('throws an unauthorized ProviderApiError when Authorize.Net answers E00007 for a wrong transaction key', async () => {
    // Act
    const fetching = authorizeNetApi.fetchPayment({ apiKey: `${AUTHORIZE_NET_TEST_LOGIN_ID}:wrongKey00000000` }, '60020981676');
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unauthorized', retryable: false });
  });

  it('throws an unauthorized ProviderApiError without calling Authorize.Net when the stored key is not apiLoginId:transactionKey', async () => {
    // Prepare
    const requestsBefore = fake.requests.length;
    // Act
    const fetching = authorizeNetApi.fetchPayment({ apiKey: AUTHORIZE_NET_TEST_TRANSACTION_KEY }, '60020981676');
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unauthorized' });
    expect(fake.requests.length).toBe(requestsBefore);
  });

  it('throws a retryable ProviderApiError when Authorize.Net answers 503', async () => {
    // Prepare
    fake.failNextWith(503);
    // Act
    const fetching = authorizeNetApi.fetchPayment(credentials, '60020981676');
    // Assess
    await expect(fetching).rejects.toMatchObject({ failure: 'unavailable', retryable: true, status: 503 });
  });
});
