/**
 * Thin provider webhooks end to end over real HTTP and DynamoDB Local: the inbound-webhooks
 * consumer fetches what the event only names from the provider's API (loopback fakes in
 * test/fakes, reached through MOLLIE_API_BASE_URL / GOCARDLESS_API_BASE_URL /
 * AUTHORIZE_NET_API_BASE_URL / RECURLY_API_BASE_URL, which the adapters read at call time) with
 * the merchant's API key (`setProviderApiKey`), then ingests it. Besides payments, the
 * non-payment events are checked by their effects: a payment-method update lifts a recovery's
 * card wait, a cancelled subscription ends its recoveries, a refund lands on the refunded
 * payment's timeline.
 */
import { createHmac } from 'node:crypto';
import { processProviderWebhook, ProviderApiKeyMissingError } from '#consumers/provider-webhook';
import { getPayment } from '#data/payment-repository';
import { setProviderApiKey, setProviderSecret } from '#data/provider-secret-repository';
import { WebhookPayloadError } from '#webhooks/types';
import type { LocalStack } from '#lib/local/local-stack';
import { AUTHORIZE_NET_TEST_API_KEY, type FakeAuthorizeNetApi, startFakeAuthorizeNetApi } from '#test/fakes/authorize-net-api';
import { type FakeGoCardlessApi, GOCARDLESS_TEST_ACCESS_TOKEN, startFakeGoCardlessApi } from '#test/fakes/gocardless-api';
import { type FakeMollieApi, MOLLIE_TEST_API_KEY, startFakeMollieApi } from '#test/fakes/mollie-api';
import { type FakeRecurlyApi, RECURLY_TEST_API_KEY, startFakeRecurlyApi } from '#test/fakes/recurly-api';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { type Delivery, INBOUND_MAX_RECEIVES, type PaymentBody, type ReceivedBody, thinCases } from '#test/fixtures/provider-webhooks';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import { postUntilDeadLettered } from '#test/fixtures/inbound-dead-letters';

/** The merchant's next-gen signing secret: the webhook endpoint exists once a secret is set, though classic bodies are unsigned. */
const MOLLIE_SECRET = 'mollie-next-gen-signing-secret-3x9';
const mollieClassicFor = (paymentId: string): Delivery => ({ body: `id=${paymentId}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const RECURLY_SECRET = 'recurly-endpoint-secret-thin-8c2f';
/** A thin Recurly JSON notification, signed as Recurly does (`recurly-signature: <ms>,<hex HMAC-SHA256 of "ms.body">`). */
const recurlyThinFor = (notification: Readonly<Record<string, string>>, secret = RECURLY_SECRET): Delivery => {
  const body = JSON.stringify(notification);
  const at = Date.now();
  return {
    body,
    headers: { 'content-type': 'application/json', 'recurly-signature': `${at},${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}` },
  };
};

const GOCARDLESS_SECRET = 'gc-endpoint-secret-thin-4Rk8';
/** A GoCardless delivery of events, signed as GoCardless does (`Webhook-Signature`: hex HMAC-SHA256 of the body). */
const gocardlessFor = (events: readonly object[]): Delivery => {
  const body = JSON.stringify({ events, meta: { webhook_id: 'WB00THIN' } });
  return { body, headers: { 'content-type': 'application/json', 'webhook-signature': createHmac('sha256', GOCARDLESS_SECRET).update(body).digest('hex') } };
};
const gocardlessEvent = (id: string, resourceType: string, action: string, links: Readonly<Record<string, string>>, details: object = {}) => ({
  id,
  created_at: '2026-03-05T10:00:00.000Z',
  resource_type: resourceType,
  action,
  links,
  details,
  metadata: {},
});
/** A next-gen Mollie event with the "simple" payload, signed with the webhook's secret (`X-Mollie-Signature: sha256=<hex>`). */
const mollieSimpleFor = (event: object): Delivery => {
  const body = JSON.stringify({ resource: 'event', createdAt: '2026-03-05T10:00:00+00:00', ...event });
  return {
    body,
    headers: { 'content-type': 'application/json', 'x-mollie-signature': `sha256=${createHmac('sha256', MOLLIE_SECRET).update(body).digest('hex')}` },
  };
};
const mollieEntityLink = (path: string) => ({
  _links: {
    self: { href: 'https://api.mollie.com/v2/events/x', type: 'application/hal+json' },
    entity: { href: `https://api.mollie.com${path}`, type: 'application/hal+json' },
  },
});
const ANET_SECRET = 'A0B1C2D3E4F5061728394A5B6C7D8E9F00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF';
/** An Authorize.Net notification, signed as Authorize.Net does (`X-ANET-Signature: sha512=<HEX>`). */
const authorizeNetFor = (notificationId: string, eventType: string, payload: object): Delivery => {
  const body = JSON.stringify({
    notificationId,
    eventType,
    eventDate: '2026-03-10T12:00:00.0000000Z',
    webhookId: '63d6fea2-aa13-4b1d-a204-f5fbc15942b7',
    payload,
  });
  return {
    body,
    headers: { 'content-type': 'application/json', 'x-anet-signature': `sha512=${createHmac('sha512', ANET_SECRET).update(body).digest('hex').toUpperCase()}` },
  };
};
const anetDeclined = (notificationId: string, transId: string, authAmount: number) =>
  authorizeNetFor(notificationId, 'net.authorize.payment.authcapture.created', {
    responseCode: 2,
    authCode: '',
    avsResponse: 'Y',
    authAmount,
    entityName: 'transaction',
    id: transId,
  });

interface TimelineEventBody {
  type: string;
  details: Record<string, unknown>;
}
/** The timeline entries of one type (the retry engine may add its own entries around them). */
const entriesOf = (timeline: readonly TimelineEventBody[], type: string): TimelineEventBody[] => timeline.filter((event) => event.type === type);

describe('thin provider webhooks', () => {
  let stack: LocalStack;
  let mollie: FakeMollieApi;
  let gocardless: FakeGoCardlessApi;
  let authorizeNet: FakeAuthorizeNetApi;
  let recurly: FakeRecurlyApi;

  beforeAll(async () => {
    [stack, mollie, gocardless, authorizeNet, recurly] = await Promise.all([
      startTestStack(),
      startFakeMollieApi(),
      startFakeGoCardlessApi(),
      startFakeAuthorizeNetApi(),
      startFakeRecurlyApi(),
    ]);
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

  const post = (path: string, delivery: Delivery) =>
    call<ReceivedBody>(`${originOf(stack)}${path}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers });
  const paymentsOf = async (tenant: Tenant, psp: string): Promise<PaymentBody[]> =>
    (await call<{ data: PaymentBody[] }>(`${stack.api_url}/payments?psp=${psp}&per_page=100`, { key: tenant.key })).body.data;
  const timelineOf = async (tenant: Tenant, paymentId: string): Promise<TimelineEventBody[]> =>
    (await call<{ data: { events: TimelineEventBody[] } }>(`${stack.api_url}/payments/${paymentId}/timeline`, { key: tenant.key })).body.data.events;
  /** Posts a delivery and drains the queues, as the provider posting and the consumer running would. */
  const deliver = async (path: string, delivery: Delivery) => {
    const response = await post(path, delivery);
    await stack.runtime.queues.drain();
    expect(response.status).toBe(200);
    return response;
  };
  const lettersOf = (id: string) => stack.runtime.queues.deadLetters('inbound-webhooks').filter((letter) => letter.body.includes(id));
  const tenantWith = async (psp: 'mollie' | 'gocardless' | 'authorize_net' | 'recurly', options: { secret?: string; apiKey?: string }): Promise<Tenant> => {
    const tenant = await newTenant(['admin'], UNLIMITED);
    if (options.secret !== undefined) await setProviderSecret(tenant.merchant.id, psp, options.secret);
    if (options.apiKey !== undefined) await setProviderApiKey(tenant.merchant.id, psp, options.apiKey);
    return tenant;
  };
  /** Posts through queues on an injected clock, redelivering a failed message after its 60 s visibility timeout, up to maxReceiveCount. */
  const postWithRedeliveries = (path: string, delivery: Delivery) => postUntilDeadLettered(stack, () => post(path, delivery));

  describe('for mollie (classic id=tr_… webhooks)', () => {
    it('records the failed payment with the fetched amount in minor units, currency, customer email and decline code when a classic webhook is drained', async () => {
      // Prepare
      const tenant = await tenantWith('mollie', { secret: MOLLIE_SECRET, apiKey: MOLLIE_TEST_API_KEY });
      mollie.seedPayment({
        id: 'tr_thinFailed01',
        status: 'failed',
        amount: { value: '24.99', currency: 'EUR' },
        customerId: 'cst_thin01',
        subscriptionId: 'sub_thin01',
        details: { failureReason: 'insufficient_funds' },
      });
      mollie.seedCustomer({ id: 'cst_thin01', name: 'Eva Bakker', email: 'eva.bakker@example.nl' });
      // Act
      const response = await post(`/mollie/${tenant.merchant.id}`, mollieClassicFor('tr_thinFailed01'));
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      expect(await paymentsOf(tenant, 'mollie')).toEqual([
        expect.objectContaining({
          psp: 'mollie',
          status: 'retrying',
          provider_payment_id: 'tr_thinFailed01',
          amount: 2499,
          currency: 'eur',
          decline_code: 'insufficient_funds',
          customer_email: 'eva.bakker@example.nl',
        }),
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
      mollie.seedPayment({
        id: 'tr_thinTwice03',
        status: 'failed',
        amount: { value: '3.00', currency: 'EUR' },
        billingAddress: { email: 'twice@example.nl' },
        details: { failureReason: 'card_expired' },
      });
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
      mollie.seedPayment({
        id: 'tr_thinRetry05',
        status: 'failed',
        amount: { value: '15.00', currency: 'EUR' },
        billingAddress: { email: 'retry@example.nl' },
        details: { failureReason: 'refused_by_issuer' },
      });
      const requestsBefore = mollie.requests.length;
      mollie.failNextWith(503);
      // Act
      const { response, letters } = await postWithRedeliveries(`/mollie/${tenant.merchant.id}`, mollieClassicFor('tr_thinRetry05'));
      // Assess
      expect(response.status).toBe(200);
      expect(letters).toEqual([]);
      expect(mollie.requests.slice(requestsBefore).map((r) => r.path)).toEqual(['/v2/payments/tr_thinRetry05', '/v2/payments/tr_thinRetry05']);
      expect(await paymentsOf(tenant, 'mollie')).toEqual([
        expect.objectContaining({ provider_payment_id: 'tr_thinRetry05', amount: 1500, decline_code: 'refused_by_issuer' }),
      ]);
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
      gocardless.seedPayment({
        id: 'PM0042ABCD',
        amount: 4500,
        currency: 'GBP',
        status: 'failed',
        links: { mandate: 'MD0011XYZ', subscription: 'SB00AB12CD' },
      });
      gocardless.seedMandate('MD0011XYZ', 'CU0077QRS');
      gocardless.seedCustomer({ id: 'CU0077QRS', email: 'harriet@example.co.uk', given_name: 'Harriet', family_name: 'Lane' });
      // Act
      const response = await post(`/gocardless/${tenant.merchant.id}`, gocardlessCase.failed(''));
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      expect(await paymentsOf(tenant, 'gocardless')).toEqual([
        expect.objectContaining({
          psp: 'gocardless',
          status: 'retrying',
          provider_payment_id: 'PM0042ABCD',
          amount: 4500,
          currency: 'gbp',
          decline_code: 'insufficient_funds',
          customer_email: 'harriet@example.co.uk',
        }),
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
        expect.objectContaining({
          psp: 'authorize_net',
          status: 'pending',
          provider_payment_id: '60020981676',
          amount: 4500,
          currency: 'usd',
          decline_code: '27',
          customer_email: 'dana.whitfield@example.com',
        }),
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
      const notification = {
        id: 'nthin0001',
        object_type: 'payment',
        event_type: 'failed',
        event_time: '2026-03-11T08:00:05Z',
        uuid: '5f3e2d1c0b9a48776655443322110011',
        account_code: 'acct-thin-01',
      };
      // Act
      const response = await post(`/recurly/${tenant.merchant.id}`, recurlyThinFor(notification));
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      expect(await paymentsOf(tenant, 'recurly')).toEqual([
        expect.objectContaining({
          psp: 'recurly',
          status: 'retrying',
          provider_payment_id: '5f3e2d1c0b9a48776655443322110011',
          amount: 4900,
          currency: 'usd',
          decline_code: 'insufficient_funds',
          customer_email: 'lena.ortiz@example.com',
        }),
      ]);
      expect(recurly.requests.at(-1)?.path).toBe('/transactions/uuid-5f3e2d1c0b9a48776655443322110011');
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });

    it('acknowledges and records nothing when Recurly does not know the transaction', async () => {
      // Prepare
      const tenant = await tenantWith('recurly', { secret: RECURLY_SECRET, apiKey: RECURLY_TEST_API_KEY });
      const notification = {
        id: 'nthin0002',
        object_type: 'payment',
        event_type: 'failed',
        event_time: '2026-03-11T08:10:00Z',
        uuid: '0000000000000000000000000000dead',
        account_code: 'acct-thin-02',
      };
      // Act
      const response = await post(`/recurly/${tenant.merchant.id}`, recurlyThinFor(notification));
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      expect(await paymentsOf(tenant, 'recurly')).toEqual([]);
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });
  });

  describe('for gocardless (mandate, subscription and refund events)', () => {
    const customer = { id: 'CU00NONPAY', email: 'martha.quill@example.co.uk', given_name: 'Martha', family_name: 'Quill' };

    it("applies the card update to the customer's recovery awaiting one when a mandates.replaced event names their new mandate", async () => {
      // Prepare
      const tenant = await tenantWith('gocardless', { secret: GOCARDLESS_SECRET, apiKey: GOCARDLESS_TEST_ACCESS_TOKEN });
      gocardless.seedCustomer(customer);
      gocardless.seedMandate('MD00OLD1', customer.id);
      gocardless.seedMandate('MD00NEW1', customer.id);
      gocardless.seedPayment({ id: 'PM00CLOSED1', amount: 3000, currency: 'GBP', status: 'failed', links: { mandate: 'MD00OLD1' } });
      await deliver(
        `/gocardless/${tenant.merchant.id}`,
        gocardlessFor([
          gocardlessEvent('EV00CLOSED1', 'payments', 'failed', { payment: 'PM00CLOSED1', mandate: 'MD00OLD1' }, { cause: 'bank_account_closed' }),
        ]),
      );
      const [failed] = await paymentsOf(tenant, 'gocardless');
      const before = await getPayment(tenant.merchant.id, failed?.id ?? '');
      const requestsBefore = gocardless.requests.length;
      // Act
      const response = await deliver(
        `/gocardless/${tenant.merchant.id}`,
        gocardlessFor([gocardlessEvent('EV00REPLACED1', 'mandates', 'replaced', { mandate: 'MD00OLD1', new_mandate: 'MD00NEW1' })]),
      );
      // Assess
      expect(before).toMatchObject({ decline_category: 'hard_customer', awaiting_card_update: true });
      expect(entriesOf(await timelineOf(tenant, failed?.id ?? ''), 'payment_method_updated')).toEqual([
        expect.objectContaining({ details: expect.objectContaining({ was_awaiting: true }) }),
      ]);
      expect((await getPayment(tenant.merchant.id, failed?.id ?? ''))?.status).toEqual('retrying');
      expect(gocardless.requests.slice(requestsBefore).map((r) => r.path)).toEqual(['/mandates/MD00NEW1', `/customers/${customer.id}`]);
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });

    it('ends the recoveries of the subscription a subscriptions.cancelled event names and leaves those of another subscription', async () => {
      // Prepare
      const tenant = await tenantWith('gocardless', { secret: GOCARDLESS_SECRET, apiKey: GOCARDLESS_TEST_ACCESS_TOKEN });
      gocardless.seedCustomer(customer);
      gocardless.seedMandate('MD00SUBS1', customer.id);
      gocardless.seedPayment({
        id: 'PM00SUBA1',
        amount: 1000,
        currency: 'GBP',
        status: 'failed',
        links: { mandate: 'MD00SUBS1', subscription: 'SB00CANCEL1' },
      });
      gocardless.seedPayment({ id: 'PM00SUBB1', amount: 2000, currency: 'GBP', status: 'failed', links: { mandate: 'MD00SUBS1', subscription: 'SB00KEPT1' } });
      gocardless.seedSubscription({ id: 'SB00CANCEL1', amount: 1000, currency: 'GBP', status: 'cancelled', links: { mandate: 'MD00SUBS1' } });
      await deliver(
        `/gocardless/${tenant.merchant.id}`,
        gocardlessFor([
          gocardlessEvent('EV00SUBA1', 'payments', 'failed', { payment: 'PM00SUBA1', subscription: 'SB00CANCEL1' }, { cause: 'insufficient_funds' }),
          gocardlessEvent('EV00SUBB1', 'payments', 'failed', { payment: 'PM00SUBB1', subscription: 'SB00KEPT1' }, { cause: 'insufficient_funds' }),
        ]),
      );
      // Act
      await deliver(
        `/gocardless/${tenant.merchant.id}`,
        gocardlessFor([gocardlessEvent('EV00CANCELLED1', 'subscriptions', 'cancelled', { subscription: 'SB00CANCEL1' })]),
      );
      // Assess
      const byId = Object.fromEntries((await paymentsOf(tenant, 'gocardless')).map((payment) => [payment.provider_payment_id, payment.status]));
      expect(byId.PM00SUBA1).toBe('terminal');
      expect(byId.PM00SUBB1).toEqual('retrying');
    });

    it("records a refunds.paid event on the refunded payment's timeline with the refund's amount and currency", async () => {
      // Prepare
      const tenant = await tenantWith('gocardless', { secret: GOCARDLESS_SECRET, apiKey: GOCARDLESS_TEST_ACCESS_TOKEN });
      gocardless.seedCustomer(customer);
      gocardless.seedMandate('MD00REFUND1', customer.id);
      gocardless.seedPayment({ id: 'PM00REFUND1', amount: 4000, currency: 'GBP', status: 'failed', links: { mandate: 'MD00REFUND1' } });
      await deliver(
        `/gocardless/${tenant.merchant.id}`,
        gocardlessFor([gocardlessEvent('EV00REFAIL1', 'payments', 'failed', { payment: 'PM00REFUND1' }, { cause: 'insufficient_funds' })]),
      );
      gocardless.seedPayment({
        id: 'PM00REFUND1',
        amount: 4000,
        amount_refunded: 1500,
        currency: 'GBP',
        status: 'confirmed',
        links: { mandate: 'MD00REFUND1' },
      });
      await deliver(`/gocardless/${tenant.merchant.id}`, gocardlessFor([gocardlessEvent('EV00RECONF1', 'payments', 'confirmed', { payment: 'PM00REFUND1' })]));
      gocardless.seedRefund({ id: 'RF00PAID1', amount: 1500, currency: 'GBP', links: { payment: 'PM00REFUND1', mandate: 'MD00REFUND1' } });
      // Act
      await deliver(
        `/gocardless/${tenant.merchant.id}`,
        gocardlessFor([gocardlessEvent('EV00REFPAID1', 'refunds', 'paid', { refund: 'RF00PAID1', payment: 'PM00REFUND1' })]),
      );
      // Assess
      const [payment] = await paymentsOf(tenant, 'gocardless');
      expect(payment).toMatchObject({ provider_payment_id: 'PM00REFUND1', status: 'recovered', amount: 4000 });
      const timeline = await timelineOf(tenant, payment?.id ?? '');
      expect(timeline.at(-1)?.type).toBe('charge_refunded');
      expect(entriesOf(timeline, 'charge_refunded')).toEqual([
        expect.objectContaining({ details: expect.objectContaining({ amount: 1500, currency: 'gbp', provider_payment_id: 'PM00REFUND1' }) }),
      ]);
    });
  });

  describe('for mollie (next-gen chargeback and refund events with the simple payload)', () => {
    it("records a failed payment for the amount charged back, with its reason code and the payment's customer, when a chargeback.received event is drained", async () => {
      // Prepare
      const tenant = await tenantWith('mollie', { secret: MOLLIE_SECRET, apiKey: MOLLIE_TEST_API_KEY });
      mollie.seedPayment({
        id: 'tr_thinCharged1',
        status: 'paid',
        amount: { value: '19.95', currency: 'EUR' },
        customerId: 'cst_charged1',
        subscriptionId: 'sub_charged1',
      });
      mollie.seedCustomer({ id: 'cst_charged1', name: 'Saskia de Boer', email: 'saskia@example.nl' });
      mollie.seedChargeback({
        id: 'chb_thin1',
        paymentId: 'tr_thinCharged1',
        amount: { value: '19.95', currency: 'EUR' },
        reason: { code: 'AM04', description: 'Insufficient funds' },
      });
      // Act
      const response = await deliver(
        `/mollie/${tenant.merchant.id}`,
        mollieSimpleFor({
          id: 'event_thinChb1',
          type: 'chargeback.received',
          entityId: 'chb_thin1',
          ...mollieEntityLink('/v2/payments/tr_thinCharged1/chargebacks/chb_thin1'),
        }),
      );
      // Assess
      const payments = await paymentsOf(tenant, 'mollie');
      expect(payments).toEqual([
        expect.objectContaining({
          provider_payment_id: 'tr_thinCharged1',
          amount: 1995,
          currency: 'eur',
          decline_code: 'AM04',
          customer_email: 'saskia@example.nl',
        }),
      ]);
      expect(payments[0]?.status).toEqual('retrying');
      expect(mollie.requests.slice(-3).map((r) => r.path)).toEqual([
        '/v2/payments/tr_thinCharged1/chargebacks/chb_thin1',
        '/v2/payments/tr_thinCharged1',
        '/v2/customers/cst_charged1',
      ]);
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });

    it("records a refund.refunded event on the refunded payment's timeline with the amount given back", async () => {
      // Prepare
      const tenant = await tenantWith('mollie', { secret: MOLLIE_SECRET, apiKey: MOLLIE_TEST_API_KEY });
      const failed = { id: 'tr_thinRefunded1', amount: { value: '40.00', currency: 'EUR' }, billingAddress: { email: 'refund.me@example.nl' } } as const;
      mollie.seedPayment({ ...failed, status: 'failed', details: { failureReason: 'insufficient_funds' } });
      await deliver(`/mollie/${tenant.merchant.id}`, mollieClassicFor(failed.id));
      mollie.seedPayment({ ...failed, status: 'paid', amountRefunded: { value: '10.00', currency: 'EUR' } });
      mollie.seedRefund({ id: 're_thin1', paymentId: failed.id, amount: { value: '10.00', currency: 'EUR' } });
      // Act
      await deliver(
        `/mollie/${tenant.merchant.id}`,
        mollieSimpleFor({
          id: 'event_thinRe1',
          type: 'refund.refunded',
          entityId: 're_thin1',
          ...mollieEntityLink(`/v2/payments/${failed.id}/refunds/re_thin1`),
        }),
      );
      // Assess
      const [payment] = await paymentsOf(tenant, 'mollie');
      const timeline = await timelineOf(tenant, payment?.id ?? '');
      expect(timeline.at(-1)?.type).toBe('charge_refunded');
      expect(entriesOf(timeline, 'charge_refunded')).toEqual([
        expect.objectContaining({ details: expect.objectContaining({ amount: 1000, currency: 'eur', provider_payment_id: failed.id }) }),
      ]);
    });

    it('dead-letters a simple refund event whose links name no payment with WebhookPayloadError, fetching nothing', async () => {
      // Prepare
      const tenant = await tenantWith('mollie', { secret: MOLLIE_SECRET, apiKey: MOLLIE_TEST_API_KEY });
      const requestsBefore = mollie.requests.length;
      // Act
      const { response, letters } = await postWithRedeliveries(
        `/mollie/${tenant.merchant.id}`,
        mollieSimpleFor({ id: 'event_thinRe2', type: 'refund.refunded', entityId: 're_thin2' }),
      );
      const message = { kind: 'provider_webhook', merchant_id: tenant.merchant.id, psp: 'mollie', webhook_log_id: response.body.data.id };
      // Assess
      expect(letters.map((letter) => letter.receiveCount)).toEqual([INBOUND_MAX_RECEIVES]);
      await expect(processProviderWebhook(message, {} as never)).rejects.toThrow(WebhookPayloadError);
      expect(mollie.requests.length).toBe(requestsBefore);
    });
  });

  describe('for authorize_net (ARB subscription and payment profile events)', () => {
    const profile = {
      customerProfileId: '1930000001',
      email: 'theo.park@example.com',
      paymentProfiles: [{ customerPaymentProfileId: '1850000001', billTo: { firstName: 'Theo', lastName: 'Park' } }],
    };

    it('ends the recovery of the ARB subscription a subscription.cancelled event names', async () => {
      // Prepare
      const tenant = await tenantWith('authorize_net', { secret: ANET_SECRET, apiKey: AUTHORIZE_NET_TEST_API_KEY });
      authorizeNet.seedTransaction({
        transId: '60031000001',
        responseCode: 2,
        responseReasonCode: 2,
        authAmount: 29.99,
        customer: { email: profile.email },
        profile: { customerProfileId: profile.customerProfileId },
        subscription: { id: 7001001, payNum: 2 },
      });
      await deliver(`/authorize_net/${tenant.merchant.id}`, anetDeclined('4b0c2a10-0000-4000-8000-000000000001', '60031000001', 29.99));
      authorizeNet.seedSubscription({ id: '7001001', status: 'canceled', amount: 29.99, profile });
      // Act
      await deliver(
        `/authorize_net/${tenant.merchant.id}`,
        authorizeNetFor('4b0c2a10-0000-4000-8000-000000000002', 'net.authorize.customer.subscription.cancelled', {
          name: 'Monthly plan',
          amount: 29.99,
          status: 'canceled',
          profile: { customerProfileId: 1930000001, customerPaymentProfileId: 1850000001 },
          entityName: 'subscription',
          id: '7001001',
        }),
      );
      // Assess
      expect(await paymentsOf(tenant, 'authorize_net')).toEqual([
        expect.objectContaining({ provider_payment_id: '60031000001', status: 'terminal', amount: 2999 }),
      ]);
      expect(authorizeNet.requests.at(-1)?.body).toMatchObject({ ARBGetSubscriptionRequest: { subscriptionId: '7001001' } });
    });

    it("records a failed ARB renewal that names no transaction with the payload amount in cents, usd and the customer of the subscription's profile", async () => {
      // Prepare
      const tenant = await tenantWith('authorize_net', { secret: ANET_SECRET, apiKey: AUTHORIZE_NET_TEST_API_KEY });
      authorizeNet.seedSubscription({ id: '7001002', status: 'active', amount: 49.5, profile });
      // Act
      const response = await deliver(
        `/authorize_net/${tenant.merchant.id}`,
        authorizeNetFor('4b0c2a10-0000-4000-8000-000000000006', 'net.authorize.customer.subscription.failed', {
          name: 'Monthly plan',
          amount: 49.5,
          status: 'active',
          profile: { customerProfileId: 1930000001, customerPaymentProfileId: 1850000001 },
          entityName: 'subscription',
          id: '7001002',
        }),
      );
      // Assess
      const payments = await paymentsOf(tenant, 'authorize_net');
      expect(payments).toEqual([
        expect.objectContaining({ provider_payment_id: null, amount: 4950, currency: 'usd', customer_email: profile.email, status: 'retrying' }),
      ]);
      expect(await getPayment(tenant.merchant.id, payments[0]?.id ?? '')).toMatchObject({ subscription_id: '7001002' });
      expect(authorizeNet.requests.at(-1)?.body).toMatchObject({ ARBGetSubscriptionRequest: { subscriptionId: '7001002' } });
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });

    it("applies the card update to the customer's recovery awaiting one when a paymentProfile.updated event names their payment profile", async () => {
      // Prepare
      const tenant = await tenantWith('authorize_net', { secret: ANET_SECRET, apiKey: AUTHORIZE_NET_TEST_API_KEY });
      authorizeNet.seedTransaction({
        transId: '60031000002',
        responseCode: 2,
        responseReasonCode: 8,
        authAmount: 15,
        customer: { email: profile.email },
        profile: { customerProfileId: profile.customerProfileId },
      });
      await deliver(`/authorize_net/${tenant.merchant.id}`, anetDeclined('4b0c2a10-0000-4000-8000-000000000003', '60031000002', 15));
      authorizeNet.seedCustomerProfile(profile);
      const [failed] = await paymentsOf(tenant, 'authorize_net');
      const before = await getPayment(tenant.merchant.id, failed?.id ?? '');
      // Act
      await deliver(
        `/authorize_net/${tenant.merchant.id}`,
        authorizeNetFor('4b0c2a10-0000-4000-8000-000000000004', 'net.authorize.customer.paymentProfile.updated', {
          customerProfileId: 1930000001,
          entityName: 'customerPaymentProfile',
          id: '1850000001',
          customerType: 'individual',
        }),
      );
      // Assess
      expect(before).toMatchObject({ decline_category: 'hard_customer', awaiting_card_update: true });
      expect(entriesOf(await timelineOf(tenant, failed?.id ?? ''), 'payment_method_updated')).toEqual([
        expect.objectContaining({ details: expect.objectContaining({ was_awaiting: true }) }),
      ]);
      expect((await getPayment(tenant.merchant.id, failed?.id ?? ''))?.status).toEqual('retrying');
      expect(authorizeNet.requests.at(-1)?.body).toMatchObject({ getCustomerProfileRequest: { customerProfileId: '1930000001' } });
    });

    it('files a declined transaction without customer email under the email of its CIM profile, looked up through the API', async () => {
      // Prepare
      const tenant = await tenantWith('authorize_net', { secret: ANET_SECRET, apiKey: AUTHORIZE_NET_TEST_API_KEY });
      authorizeNet.seedTransaction({
        transId: '60031000003',
        responseCode: 2,
        responseReasonCode: 2,
        authAmount: 12,
        profile: { customerProfileId: profile.customerProfileId },
      });
      authorizeNet.seedCustomerProfile(profile);
      // Act
      const response = await deliver(`/authorize_net/${tenant.merchant.id}`, anetDeclined('4b0c2a10-0000-4000-8000-000000000005', '60031000003', 12));
      // Assess
      const payments = await paymentsOf(tenant, 'authorize_net');
      expect(payments).toEqual([expect.objectContaining({ provider_payment_id: '60031000003', amount: 1200, customer_email: profile.email })]);
      expect(payments[0]?.status).toEqual('retrying');
      expect(authorizeNet.requests.at(-1)?.body).toMatchObject({ getCustomerProfileRequest: { customerProfileId: profile.customerProfileId } });
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });
  });

  describe('for recurly (thin subscription and billing info notifications)', () => {
    const account = { id: 'racctnonpay1', code: 'acct-nonpay-01', email: 'ines.alvarez@example.com', first_name: 'Ines', last_name: 'Alvarez' };
    /** A failed transaction of the account for a subscription, delivered as Recurly's thin payment.failed. */
    const failedTransaction = async (tenant: Tenant, uuid: string, statusCode: string, subscriptionId: string) => {
      recurly.seedTransaction({
        id: `rt${uuid.slice(0, 8)}`,
        uuid,
        status: 'declined',
        status_code: statusCode,
        amount: 25,
        currency: 'USD',
        account,
        subscription_ids: [subscriptionId],
      });
      await deliver(
        `/recurly/${tenant.merchant.id}`,
        recurlyThinFor({
          id: `n${uuid.slice(0, 8)}`,
          object_type: 'payment',
          event_type: 'failed',
          event_time: '2026-03-11T09:00:00Z',
          uuid,
          account_code: account.code,
        }),
      );
      const [payment] = await paymentsOf(tenant, 'recurly');
      return payment?.id ?? '';
    };

    it('ends the recovery of the subscription a subscription.canceled notification names once Recurly shows it canceled', async () => {
      // Prepare
      const tenant = await tenantWith('recurly', { secret: RECURLY_SECRET, apiKey: RECURLY_TEST_API_KEY });
      const paymentId = await failedTransaction(tenant, '7a1b2c3d4e5f40718293a4b5c6d7e801', 'insufficient_funds', 'rsubnonpay1');
      recurly.seedSubscription({ id: 'rsubnonpay1', uuid: '9e8d7c6b5a4f40312f1e0d9c8b7a6901', state: 'canceled', currency: 'USD', unit_amount: 25, account });
      // Act
      await deliver(
        `/recurly/${tenant.merchant.id}`,
        recurlyThinFor({
          id: 'nsubcancel1',
          object_type: 'subscription',
          event_type: 'canceled',
          event_time: '2026-03-12T09:00:00Z',
          uuid: '9e8d7c6b5a4f40312f1e0d9c8b7a6901',
          account_code: account.code,
        }),
      );
      // Assess
      expect(await getPayment(tenant.merchant.id, paymentId)).toMatchObject({ status: 'terminal', subscription_id: 'rsubnonpay1' });
      expect(recurly.requests.at(-1)?.path).toBe('/subscriptions/uuid-9e8d7c6b5a4f40312f1e0d9c8b7a6901');
    });

    it('leaves the recovery open when the subscription a subscription.canceled notification names is active again when fetched', async () => {
      // Prepare
      const tenant = await tenantWith('recurly', { secret: RECURLY_SECRET, apiKey: RECURLY_TEST_API_KEY });
      const paymentId = await failedTransaction(tenant, '7a1b2c3d4e5f40718293a4b5c6d7e802', 'insufficient_funds', 'rsubnonpay2');
      recurly.seedSubscription({ id: 'rsubnonpay2', uuid: '9e8d7c6b5a4f40312f1e0d9c8b7a6902', state: 'active', currency: 'USD', unit_amount: 25, account });
      // Act
      const response = await deliver(
        `/recurly/${tenant.merchant.id}`,
        recurlyThinFor({
          id: 'nsubcancel2',
          object_type: 'subscription',
          event_type: 'canceled',
          event_time: '2026-03-12T09:05:00Z',
          uuid: '9e8d7c6b5a4f40312f1e0d9c8b7a6902',
          account_code: account.code,
        }),
      );
      // Assess
      expect((await getPayment(tenant.merchant.id, paymentId))?.status).toEqual('retrying');
      expect(recurly.requests.at(-1)?.path).toBe('/subscriptions/uuid-9e8d7c6b5a4f40312f1e0d9c8b7a6902');
      expect(lettersOf(response.body.data.id)).toEqual([]);
    });

    it("applies the card update to the account's recovery awaiting one when a billing_info.updated notification is drained", async () => {
      // Prepare
      const tenant = await tenantWith('recurly', { secret: RECURLY_SECRET, apiKey: RECURLY_TEST_API_KEY });
      const paymentId = await failedTransaction(tenant, '7a1b2c3d4e5f40718293a4b5c6d7e803', 'expired_card', 'rsubnonpay3');
      recurly.seedAccount(account);
      const before = await getPayment(tenant.merchant.id, paymentId);
      // Act
      await deliver(
        `/recurly/${tenant.merchant.id}`,
        recurlyThinFor({ id: 'nbilling1', object_type: 'billing_info', event_type: 'updated', event_time: '2026-03-12T10:00:00Z', account_code: account.code }),
      );
      // Assess
      expect(before).toMatchObject({ decline_category: 'hard_customer', awaiting_card_update: true });
      expect(entriesOf(await timelineOf(tenant, paymentId), 'payment_method_updated')).toEqual([
        expect.objectContaining({ details: expect.objectContaining({ was_awaiting: true }) }),
      ]);
      expect((await getPayment(tenant.merchant.id, paymentId))?.status).toEqual('retrying');
      expect(recurly.requests.at(-1)?.path).toBe(`/accounts/code-${account.code}`);
    });
  });
});
