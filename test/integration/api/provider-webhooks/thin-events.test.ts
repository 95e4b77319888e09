/**
 * Thin provider webhooks end to end over real HTTP and DynamoDB Local: the inbound-webhooks
 * consumer fetches what the event only names from the provider's API (loopback fakes in
 * test/fakes, reached through MOLLIE_API_BASE_URL / GOCARDLESS_API_BASE_URL /
 * AUTHORIZE_NET_API_BASE_URL / RECURLY_API_BASE_URL, which the adapters read at call time) with the merchant's API key (`setProviderApiKey`), then ingests it.
 */
import { createHmac } from 'node:crypto';
import { registerLocalQueueTransport } from '../../../../functions/adapters/queue-sender';
import { handler as inboundWebhooks } from '../../../../functions/consumers/inbound-webhooks';
import { processProviderWebhook, ProviderApiKeyMissingError } from '../../../../functions/consumers/provider-webhook';
import { setProviderApiKey, setProviderSecret } from '../../../../functions/data/provider-secret-repository';
import type { LocalStack } from '../../../../lib/local/local-stack';
import { LocalQueues } from '../../../../lib/local/queue-hub';
import { AUTHORIZE_NET_TEST_API_KEY, type FakeAuthorizeNetApi, startFakeAuthorizeNetApi } from '../../../fakes/authorize-net-api';
import { type FakeGoCardlessApi, GOCARDLESS_TEST_ACCESS_TOKEN, startFakeGoCardlessApi } from '../../../fakes/gocardless-api';
import { type FakeMollieApi, MOLLIE_TEST_API_KEY, startFakeMollieApi } from '../../../fakes/mollie-api';
import { type FakeRecurlyApi, RECURLY_TEST_API_KEY, startFakeRecurlyApi } from '../../../fakes/recurly-api';
import { call } from '../../../fixtures/http';
import { originOf, startTestStack } from '../../../fixtures/local-stack';
import { type Delivery, INBOUND_MAX_RECEIVES, type PaymentBody, type ReceivedBody, thinCases } from '../../../fixtures/provider-webhooks';
import { newTenant, type Tenant, UNLIMITED } from '../../../fixtures/tenants';

/** The merchant's next-gen signing secret: the webhook endpoint exists once a secret is set, though classic bodies are unsigned. */
const MOLLIE_SECRET = 'mollie-next-gen-signing-secret-3x9';
const mollieClassicFor = (paymentId: string): Delivery => ({ body: `id=${paymentId}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const RECURLY_SECRET = 'recurly-endpoint-secret-thin-8c2f';
/** A thin Recurly JSON notification, signed as Recurly does (`recurly-signature: <ms>,<hex HMAC-SHA256 of "ms.body">`). */
const recurlyThinFor = (notification: Readonly<Record<string, string>>, secret = RECURLY_SECRET): Delivery => {
  const body = JSON.stringify(notification);
  const at = Date.now();
  return { body, headers: { 'content-type': 'application/json', 'recurly-signature': `${at},${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}` } };
};

describe('thin provider webhooks', () => {
  let stack: LocalStack;
  let mollie: FakeMollieApi;
  let gocardless: FakeGoCardlessApi;
  let authorizeNet: FakeAuthorizeNetApi;
  let recurly: FakeRecurlyApi;

  beforeAll(async () => {
    [stack, mollie, gocardless, authorizeNet, recurly] = await Promise.all([startTestStack(), startFakeMollieApi(), startFakeGoCardlessApi(), startFakeAuthorizeNetApi(), startFakeRecurlyApi()]);
    process.env.MOLLIE_API_BASE_URL = mollie.url;
    process.env.GOCARDLESS_API_BASE_URL = gocardless.url;
    process.env.AUTHORIZE_NET_API_BASE_URL = authorizeNet.url;
    process.env.RECURLY_API_BASE_URL = recurly.url;
  });
  afterAll(async () => {
    delete process.env.MOLLIE_API_BASE_URL;
    delete process.env.GOCARDLESS_API_BASE_URL;
    delete process.env.AUTHORIZE_NET_API_BASE_URL;
    delete process.env.RECURLY_API_BASE_URL;
    await Promise.all([stack?.stop(), mollie?.stop(), gocardless?.stop(), authorizeNet?.stop(), recurly?.stop()]);
  });

  const post = (path: string, delivery: Delivery) => call<ReceivedBody>(`${originOf(stack)}${path}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers });
  const paymentsOf = async (tenant: Tenant, psp: string): Promise<PaymentBody[]> =>
    (await call<{ data: PaymentBody[] }>(`${stack.api_url}/payments?psp=${psp}&per_page=100`, { key: tenant.key })).body.data;
  const lettersOf = (id: string) => stack.runtime.queues.deadLetters('inbound-webhooks').filter((letter) => letter.body.includes(id));
  const tenantWith = async (psp: 'mollie' | 'gocardless' | 'authorize_net' | 'recurly', options: { secret?: string; apiKey?: string }): Promise<Tenant> => {
    const tenant = await newTenant(['admin'], UNLIMITED);
    if (options.secret !== undefined) await setProviderSecret(tenant.merchant.id, psp, options.secret);
    if (options.apiKey !== undefined) await setProviderApiKey(tenant.merchant.id, psp, options.apiKey);
    return tenant;
  };
  /** Posts through queues on an injected clock, redelivering a failed message after its 60 s visibility timeout, up to maxReceiveCount. */
  const postWithRedeliveries = async (path: string, delivery: Delivery) => {
    let clock = Date.now();
    const queues = new LocalQueues({ consumers: { 'inbound-webhooks': inboundWebhooks }, now: () => clock });
    try {
      const response = await post(path, delivery);
      for (let receive = 0; receive <= INBOUND_MAX_RECEIVES; receive += 1) {
        await queues.drain();
        clock += 61_000;
      }
      await queues.drain();
      return { response, letters: queues.deadLetters('inbound-webhooks').filter((letter) => letter.body.includes(response.body.data.id)) };
    } finally {
      registerLocalQueueTransport(stack.runtime.queues);
    }
  };

  describe('for mollie (classic id=tr_… webhooks)', () => {
    it('records the failed payment with the fetched amount in minor units, currency, customer email and decline code when a classic webhook is drained', async () => {
      // Prepare
      const tenant = await tenantWith('mollie', { secret: MOLLIE_SECRET, apiKey: MOLLIE_TEST_API_KEY });
      mollie.seedPayment({ id: 'tr_thinFailed01', status: 'failed', amount: { value: '24.99', currency: 'EUR' }, customerId: 'cst_thin01', subscriptionId: 'sub_thin01', details: { failureReason: 'insufficient_funds' } });
      mollie.seedCustomer({ id: 'cst_thin01', name: 'Eva Bakker', email: 'eva.bakker@example.nl' });
      // Act
      const response = await post(`/mollie/${tenant.merchant.id}`, mollieClassicFor('tr_thinFailed01'));
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      expect(await paymentsOf(tenant, 'mollie')).toEqual([
        expect.objectContaining({ psp: 'mollie', status: 'pending', provider_payment_id: 'tr_thinFailed01', amount: 2499, currency: 'eur', decline_code: 'insufficient_funds', customer_email: 'eva.bakker@example.nl' }),
      ]);
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });

    it('recovers the payment when Mollie calls again with the same body after the payment was paid', async () => {
      // Prepare
      const tenant = await tenantWith('mollie', { secret: MOLLIE_SECRET, apiKey: MOLLIE_TEST_API_KEY });
      const failed = { id: 'tr_thinLater02', amount: { value: '9.50', currency: 'EUR' }, billingAddress: { email: 'later@example.nl' } } as const;
      mollie.seedPayment({ ...failed, status: 'failed', details: { failureReason: 'card_declined' } });
      await post(`/mollie/${tenant.merchant.id}`, mollieClassicFor(failed.id));
      await stack.runtime.queues.drain();
      mollie.seedPayment({ ...failed, status: 'paid' });
      // Act
      const second = await post(`/mollie/${tenant.merchant.id}`, mollieClassicFor(failed.id));
      await stack.runtime.queues.drain();
      // Assess
      expect(second.status).toBe(200);
      const payments = await paymentsOf(tenant, 'mollie');
      expect(payments).toHaveLength(1);
      expect(payments[0]).toMatchObject({ provider_payment_id: failed.id, status: 'recovered', amount: 950, decline_code: 'card_declined' });
      expect(lettersOf(second.body.data.id)).toEqual([]);
    });

    it('records one payment when the same delivery arrives twice', async () => {
      // Prepare
      const tenant = await tenantWith('mollie', { secret: MOLLIE_SECRET, apiKey: MOLLIE_TEST_API_KEY });
      mollie.seedPayment({ id: 'tr_thinTwice03', status: 'failed', amount: { value: '3.00', currency: 'EUR' }, billingAddress: { email: 'twice@example.nl' }, details: { failureReason: 'card_expired' } });
      // Act
      const first = await post(`/mollie/${tenant.merchant.id}`, mollieClassicFor('tr_thinTwice03'));
      await stack.runtime.queues.drain();
      const again = await post(`/mollie/${tenant.merchant.id}`, mollieClassicFor('tr_thinTwice03'));
      await stack.runtime.queues.drain();
      // Assess
      expect(first.body.data.id).not.toBe(again.body.data.id);
      expect(await paymentsOf(tenant, 'mollie')).toEqual([expect.objectContaining({ provider_payment_id: 'tr_thinTwice03', status: 'pending', amount: 300 })]);
    });

    it('dead-letters the webhook with ProviderApiKeyMissingError, recording nothing, when the merchant has no Mollie API key', async () => {
      // Prepare
      const tenant = await tenantWith('mollie', { secret: MOLLIE_SECRET });
      mollie.seedPayment({ id: 'tr_thinNoKey04', status: 'failed', amount: { value: '7.00', currency: 'EUR' }, billingAddress: { email: 'nokey@example.nl' } });
      // Act
      const { response, letters } = await postWithRedeliveries(`/mollie/${tenant.merchant.id}`, mollieClassicFor('tr_thinNoKey04'));
      const message = { kind: 'provider_webhook', merchant_id: tenant.merchant.id, psp: 'mollie', webhook_log_id: response.body.data.id };
      // Assess
      expect(response.status).toBe(200);
      expect(letters.map((letter) => letter.receiveCount)).toEqual([INBOUND_MAX_RECEIVES]);
      await expect(processProviderWebhook(message, {} as never)).rejects.toThrow(ProviderApiKeyMissingError);
      expect(await paymentsOf(tenant, 'mollie')).toEqual([]);
    });

    it('records the payment on redelivery when Mollie answers 503 once', async () => {
      // Prepare
      const tenant = await tenantWith('mollie', { secret: MOLLIE_SECRET, apiKey: MOLLIE_TEST_API_KEY });
      mollie.seedPayment({ id: 'tr_thinRetry05', status: 'failed', amount: { value: '15.00', currency: 'EUR' }, billingAddress: { email: 'retry@example.nl' }, details: { failureReason: 'refused_by_issuer' } });
      const requestsBefore = mollie.requests.length;
      mollie.failNextWith(503);
      // Act
      const { response, letters } = await postWithRedeliveries(`/mollie/${tenant.merchant.id}`, mollieClassicFor('tr_thinRetry05'));
      // Assess
      expect(response.status).toBe(200);
      expect(letters).toEqual([]);
      expect(mollie.requests.slice(requestsBefore).map((r) => r.path)).toEqual(['/v2/payments/tr_thinRetry05', '/v2/payments/tr_thinRetry05']);
      expect(await paymentsOf(tenant, 'mollie')).toEqual([expect.objectContaining({ provider_payment_id: 'tr_thinRetry05', amount: 1500, decline_code: 'refused_by_issuer' })]);
    });

    it('acknowledges and records nothing when the payment is unknown to Mollie or still open', async () => {
      // Prepare
      const tenant = await tenantWith('mollie', { secret: MOLLIE_SECRET, apiKey: MOLLIE_TEST_API_KEY });
      mollie.seedPayment({ id: 'tr_thinOpen06', status: 'open', amount: { value: '4.00', currency: 'EUR' }, billingAddress: { email: 'open@example.nl' } });
      // Act
      const unknown = await post(`/mollie/${tenant.merchant.id}`, mollieClassicFor('tr_thinUnknown06'));
      const open = await post(`/mollie/${tenant.merchant.id}`, mollieClassicFor('tr_thinOpen06'));
      await stack.runtime.queues.drain();
      // Assess
      expect([unknown.status, open.status]).toEqual([200, 200]);
      expect(await paymentsOf(tenant, 'mollie')).toEqual([]);
      expect([...lettersOf(unknown.body.data.id), ...lettersOf(open.body.data.id)]).toEqual([]);
    });
  });

  describe('for gocardless (payment events)', () => {
    const gocardlessCase = thinCases.find((c) => c.psp === 'gocardless');

    it('records the failed payment with the fetched amount, currency and customer email and the event cause as decline code when a payments.failed event is drained', async () => {
      // Prepare
      if (gocardlessCase === undefined) throw new Error('no gocardless thin case in the fixtures');
      const tenant = await tenantWith('gocardless', { secret: gocardlessCase.secret, apiKey: GOCARDLESS_TEST_ACCESS_TOKEN });
      gocardless.seedPayment({ id: 'PM0042ABCD', amount: 4500, currency: 'GBP', status: 'failed', links: { mandate: 'MD0011XYZ', subscription: 'SB00AB12CD' } });
      gocardless.seedMandate('MD0011XYZ', 'CU0077QRS');
      gocardless.seedCustomer({ id: 'CU0077QRS', email: 'harriet@example.co.uk', given_name: 'Harriet', family_name: 'Lane' });
      // Act
      const response = await post(`/gocardless/${tenant.merchant.id}`, gocardlessCase.failed(''));
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      expect(await paymentsOf(tenant, 'gocardless')).toEqual([
        expect.objectContaining({ psp: 'gocardless', status: 'pending', provider_payment_id: 'PM0042ABCD', amount: 4500, currency: 'gbp', decline_code: 'insufficient_funds', customer_email: 'harriet@example.co.uk' }),
      ]);
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });

    it('dead-letters the event with ProviderApiKeyMissingError when the merchant has no GoCardless access token', async () => {
      // Prepare
      if (gocardlessCase === undefined) throw new Error('no gocardless thin case in the fixtures');
      const tenant = await tenantWith('gocardless', { secret: gocardlessCase.secret });
      // Act
      const { response, letters } = await postWithRedeliveries(`/gocardless/${tenant.merchant.id}`, gocardlessCase.failed(''));
      const message = { kind: 'provider_webhook', merchant_id: tenant.merchant.id, psp: 'gocardless', webhook_log_id: response.body.data.id };
      // Assess
      expect(letters.map((letter) => letter.receiveCount)).toEqual([INBOUND_MAX_RECEIVES]);
      await expect(processProviderWebhook(message, {} as never)).rejects.toThrow(ProviderApiKeyMissingError);
      expect(await paymentsOf(tenant, 'gocardless')).toEqual([]);
    });
  });

  describe('for authorize_net (transaction events)', () => {
    const authorizeNetCase = thinCases.find((c) => c.psp === 'authorize_net');

    it('records the declined payment with the fetched amount in cents, usd, customer email and response reason code as decline code when an authcapture.created event is drained', async () => {
      // Prepare
      if (authorizeNetCase === undefined) throw new Error('no authorize_net thin case in the fixtures');
      const tenant = await tenantWith('authorize_net', { secret: authorizeNetCase.secret, apiKey: AUTHORIZE_NET_TEST_API_KEY });
      authorizeNet.seedTransaction({
        transId: '60020981676',
        responseCode: 2,
        responseReasonCode: 27,
        authAmount: 45.0,
        customer: { id: 'CUST-4410', email: 'dana.whitfield@example.com' },
        billTo: { firstName: 'Dana', lastName: 'Whitfield' },
        order: { invoiceNumber: 'INV-7781' },
      });
      const requestsBefore = authorizeNet.requests.length;
      // Act
      const response = await post(`/authorize_net/${tenant.merchant.id}`, authorizeNetCase.failed(''));
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      expect(await paymentsOf(tenant, 'authorize_net')).toEqual([
        expect.objectContaining({ psp: 'authorize_net', status: 'pending', provider_payment_id: '60020981676', amount: 4500, currency: 'usd', decline_code: '27', customer_email: 'dana.whitfield@example.com' }),
      ]);
      expect(authorizeNet.requests.slice(requestsBefore).map((r) => r.path)).toEqual(['/xml/v1/request.api']);
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });

    it('dead-letters the event with ProviderApiKeyMissingError when the merchant has no Authorize.Net API credentials', async () => {
      // Prepare
      if (authorizeNetCase === undefined) throw new Error('no authorize_net thin case in the fixtures');
      const tenant = await tenantWith('authorize_net', { secret: authorizeNetCase.secret });
      // Act
      const { response, letters } = await postWithRedeliveries(`/authorize_net/${tenant.merchant.id}`, authorizeNetCase.failed(''));
      const message = { kind: 'provider_webhook', merchant_id: tenant.merchant.id, psp: 'authorize_net', webhook_log_id: response.body.data.id };
      // Assess
      expect(letters.map((letter) => letter.receiveCount)).toEqual([INBOUND_MAX_RECEIVES]);
      await expect(processProviderWebhook(message, {} as never)).rejects.toThrow(ProviderApiKeyMissingError);
      expect(await paymentsOf(tenant, 'authorize_net')).toEqual([]);
    });
  });

  describe('for recurly (thin JSON notifications)', () => {
    it('records the failed payment with the fetched amount in cents, currency, account email and status code as decline code when a payment.failed notification is drained', async () => {
      // Prepare
      const tenant = await tenantWith('recurly', { secret: RECURLY_SECRET, apiKey: RECURLY_TEST_API_KEY });
      recurly.seedTransaction({
        id: 'rtthin0001',
        uuid: '5f3e2d1c0b9a48776655443322110011',
        status: 'declined',
        status_code: 'insufficient_funds',
        gateway_response_code: '51',
        amount: 49.0,
        currency: 'USD',
        account: { id: 'racct0001', code: 'acct-thin-01', email: 'lena.ortiz@example.com', first_name: 'Lena', last_name: 'Ortiz' },
        invoice: { id: 'rinvthin01', number: '2201' },
        subscription_ids: ['rsubthin01'],
      });
      const notification = { id: 'nthin0001', object_type: 'payment', event_type: 'failed', event_time: '2026-03-11T08:00:05Z', uuid: '5f3e2d1c0b9a48776655443322110011', account_code: 'acct-thin-01' };
      // Act
      const response = await post(`/recurly/${tenant.merchant.id}`, recurlyThinFor(notification));
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      expect(await paymentsOf(tenant, 'recurly')).toEqual([
        expect.objectContaining({ psp: 'recurly', status: 'pending', provider_payment_id: '5f3e2d1c0b9a48776655443322110011', amount: 4900, currency: 'usd', decline_code: 'insufficient_funds', customer_email: 'lena.ortiz@example.com' }),
      ]);
      expect(recurly.requests.at(-1)?.path).toBe('/transactions/uuid-5f3e2d1c0b9a48776655443322110011');
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });

    it('acknowledges and records nothing when Recurly does not know the transaction', async () => {
      // Prepare
      const tenant = await tenantWith('recurly', { secret: RECURLY_SECRET, apiKey: RECURLY_TEST_API_KEY });
      const notification = { id: 'nthin0002', object_type: 'payment', event_type: 'failed', event_time: '2026-03-11T08:10:00Z', uuid: '0000000000000000000000000000dead', account_code: 'acct-thin-02' };
      // Act
      const response = await post(`/recurly/${tenant.merchant.id}`, recurlyThinFor(notification));
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      expect(await paymentsOf(tenant, 'recurly')).toEqual([]);
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });
  });
});
