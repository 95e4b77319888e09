/**
 * The inbound provider-webhook path over real HTTP and DynamoDB Local: POST /{psp}/{merchant_id}
 * (13 providers) and /square/{merchant_id}/invoice verify and store a delivery, and the
 * inbound-webhooks consumer (driven by `drain()`) turns it into payment events through the ingest
 * logic. Deliveries are signed with each provider's SDK or documented scheme
 * (test/fixtures/provider-webhooks.ts).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { registerLocalQueueTransport } from '#adapters/queue-sender';
import { processProviderWebhook, UnknownWebhookCustomerError } from '#consumers/provider-webhook';
import { documentClient } from '#data/client';
import { recordFailedPayment } from '#data/payment-repository';
import { setProviderApiKey, setProviderSecret } from '#data/provider-secret-repository';
import { getWebhookLog, WEBHOOK_LOG_RETENTION_SECONDS } from '#data/webhook-log-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { LocalQueues } from '#lib/local/queue-hub';
import { AUTHORIZE_NET_TEST_API_KEY, type FakeAuthorizeNetApi, startFakeAuthorizeNetApi } from '#test/fakes/authorize-net-api';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { failedPaymentInput } from '#test/fixtures/payments';
import {
  braintreeSigned,
  type Delivery,
  INBOUND_MAX_RECEIVES,
  installPaypalTestCertificate,
  mollieClassic,
  paypalCertificateRequests,
  type ProviderCase,
  providerCases,
  stripeFailedFor,
  stripePoisonEvent,
  stripeUnusedEvent,
  thinCases,
  uninstallPaypalTestCertificate,
} from '#test/fixtures/provider-webhooks';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import { postUntilDeadLettered as deadLetterAfterPost } from '#test/fixtures/inbound-dead-letters';

interface Received {
  data: { received: true; id: string };
  meta: { merchant_id: string };
}
interface ErrorBody {
  error: { code: string; message: string };
}
interface Payment {
  id: string;
  provider_payment_id: string | null;
  amount: number;
  currency: string;
  decline_code: string | null;
  psp: string;
  customer_id: string;
  customer_email: string;
}

describe('receiveProviderWebhook', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startTestStack();
    await installPaypalTestCertificate();
  });
  afterAll(async () => {
    await uninstallPaypalTestCertificate();
    await stack?.stop();
  });

  const hostOf = (): string => new URL(originOf(stack)).host;
  /** The URL the server derives for a request to `path` (no X-Forwarded-Proto: https, the Host header). */
  const publicUrl = (path: string): string => `https://${hostOf()}${path}`;
  const post = (path: string, delivery: Delivery) =>
    call<Received & ErrorBody>(`${originOf(stack)}${path}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers });
  const paymentsOf = async (tenant: Tenant, psp: string): Promise<Payment[]> =>
    (await call<{ data: Payment[] }>(`${stack.api_url}/payments?psp=${psp}&per_page=100`, { key: tenant.key })).body.data;
  const deadLetters = () => stack.runtime.queues.deadLetters('inbound-webhooks');
  /** The ids of the merchant's stored deliveries (`WHK#` items). */
  const storedDeliveriesOf = async (merchantId: string): Promise<string[]> =>
    (
      (
        await documentClient.send(
          new QueryCommand({
            TableName: process.env.TABLE_NAME as string,
            KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
            ExpressionAttributeValues: { ':pk': `M#${merchantId}`, ':sk': 'WHK#' },
          }),
        )
      ).Items ?? []
    ).map((item) => String(item.id));
  const tenantFor = async (psp: string, secret: string): Promise<Tenant> => {
    const tenant = await newTenant(['admin'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, psp, secret);
    return tenant;
  };
  const gsi2Of = async (merchantId: string, customerId: string) =>
    (
      await documentClient.send(
        new QueryCommand({
          TableName: process.env.TABLE_NAME as string,
          IndexName: 'GSI2',
          KeyConditionExpression: 'GSI2PK = :pk',
          ExpressionAttributeValues: { ':pk': `M#${merchantId}#C#${customerId}` },
        }),
      )
    ).Items ?? [];
  /** Posts through queues with an injected clock until the delivery is dead-lettered (test/fixtures/inbound-dead-letters.ts). */
  const postUntilDeadLettered = (path: string, delivery: Delivery) => deadLetterAfterPost(stack, () => post(path, delivery));
  const labelOf = (c: ProviderCase): string => (c.path('m').endsWith('/invoice') ? 'square invoice' : c.psp);

  describe.each(providerCases.map((c) => [labelOf(c), c] as const))('for %s', (_label, c) => {
    it('records the failed payment in minor units with a lowercase currency when a signed delivery is drained', async () => {
      // Prepare
      const tenant = await tenantFor(c.psp, c.secret);
      const path = c.path(tenant.merchant.id);
      if (c.expected.email === null) {
        // The provider sends no email: the customer is known from an earlier event with its provider customer id.
        await recordFailedPayment(
          failedPaymentInput(tenant.merchant.id, {
            customer: { email: `known-${c.psp}@example.com`, name: null, provider_customer_id: c.expected.providerCustomerId ?? null },
            psp: c.psp,
            providerPaymentId: `earlier-${c.psp}`,
          }),
        );
      }
      const startedAt = Math.floor(Date.now() / 1000);
      // Act
      const response = await post(path, c.failed(publicUrl(path)));
      const stored = await getWebhookLog(tenant.merchant.id, response.body.data.id);
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ received: true, id: expect.stringMatching(/^whk_/) });
      expect(stored).toMatchObject({ psp: c.psp, route_variant: path.endsWith('/invoice') ? 'invoice' : 'default' });
      expect(stored?.expires_at).toBeGreaterThanOrEqual(startedAt + WEBHOOK_LOG_RETENTION_SECONDS);
      expect(stored?.expires_at).toBeLessThanOrEqual(startedAt + WEBHOOK_LOG_RETENTION_SECONDS + 60);
      const recorded = (await paymentsOf(tenant, c.psp)).filter((p) => p.provider_payment_id !== `earlier-${c.psp}`);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({
        psp: c.psp,
        provider_payment_id: c.expected.providerPaymentId,
        amount: c.expected.amount,
        currency: c.expected.currency,
        decline_code: c.expected.declineCode,
        customer_email: c.expected.email ?? `known-${c.psp}@example.com`,
      });
      expect(deadLetters().filter((letter) => letter.body.includes(tenant.merchant.id))).toEqual([]);
    });

    const tamper = c.tamper;
    if (tamper !== undefined)
      it('answers 401 invalid_signature and stores nothing when the body was changed after signing', async () => {
        // Prepare
        const tenant = await tenantFor(c.psp, c.secret);
        const path = c.path(tenant.merchant.id);
        const delivery = c.failed(publicUrl(path));
        const tampered = { ...delivery, body: tamper(delivery.body) };
        // Act
        const response = await post(path, tampered);
        await stack.runtime.queues.drain();
        // Assess
        expect(tampered.body).not.toBe(delivery.body);
        expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 401, code: 'invalid_signature' });
        expect(await paymentsOf(tenant, c.psp)).toEqual([]);
        expect(await webhookLogsOf(tenant.merchant.id)).toEqual([]);
      });

    it('answers 401 when the delivery was signed with another secret', async () => {
      // Prepare
      const tenant = await tenantFor(c.psp, c.secret);
      const path = c.path(tenant.merchant.id);
      const other =
        c.psp === 'braintree'
          ? 'k8x2fz7p4r9dq3wm:ffffffffffffffffffffffffffffffff'
          : c.psp === 'adyen'
            ? '0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF'
            : c.psp === 'chargebee'
              ? 'recovery-hooks:wrong'
              : `${c.secret}-other`;
      // Act
      const response = await post(path, c.failed(publicUrl(path), other));
      // Assess
      expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 401, code: 'invalid_signature' });
      expect(await webhookLogsOf(tenant.merchant.id)).toEqual([]);
    });

    it('answers 401 when the signature is missing', async () => {
      // Prepare
      const tenant = await tenantFor(c.psp, c.secret);
      const path = c.path(tenant.merchant.id);
      const signed = c.failed(publicUrl(path));
      const unsigned = c.unsigned?.() ?? {
        ...signed,
        headers: Object.fromEntries(Object.entries(signed.headers).filter(([name]) => !c.signatureHeaders.includes(name))),
      };
      // Act
      const response = await post(path, unsigned);
      // Assess
      expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 401, code: 'invalid_signature' });
      expect(await webhookLogsOf(tenant.merchant.id)).toEqual([]);
    });

    it('answers 404 when the merchant does not exist or has no secret for the provider', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const unknownPath = c.path('merch_unknown_0000');
      const unconfiguredPath = c.path(tenant.merchant.id);
      // Act
      const unknown = await post(unknownPath, c.failed(publicUrl(unknownPath)));
      const unconfigured = await post(unconfiguredPath, c.failed(publicUrl(unconfiguredPath)));
      // Assess
      expect({ status: unknown.status, code: unknown.body.error?.code }).toEqual({ status: 404, code: 'resource_not_found' });
      expect({ status: unconfigured.status, code: unconfigured.body.error?.code }).toEqual({ status: 404, code: 'resource_not_found' });
      expect(unknown.body.error.message).toBe(unconfigured.body.error.message);
    });

    it('answers 400 and stores nothing when the body is over 256 KB', async () => {
      // Prepare
      const tenant = await tenantFor(c.psp, c.secret);
      const path = c.path(tenant.merchant.id);
      const big = { body: `{"padding":"${'x'.repeat(256 * 1024)}"}`, headers: { 'content-type': 'application/json' } };
      // Act
      const response = await post(path, big);
      // Assess
      expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 400, code: 'invalid_request' });
      expect(await webhookLogsOf(tenant.merchant.id)).toEqual([]);
    });

    if (c.stale !== undefined) {
      const stale = c.stale;
      it('answers 401 when the signed timestamp is older than the tolerance', async () => {
        // Prepare
        const tenant = await tenantFor(c.psp, c.secret);
        const path = c.path(tenant.merchant.id);
        // Act
        const response = await post(path, stale(publicUrl(path), 600));
        // Assess
        expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 401, code: 'invalid_signature' });
        expect(await webhookLogsOf(tenant.merchant.id)).toEqual([]);
      });
    }
  });

  // GoCardless and Authorize.Net transaction events are fetched from their APIs now (more in thin-events.test.ts).
  describe('for authorize_net (thin events)', () => {
    const c = thinCases.find((thin) => thin.psp === 'authorize_net');
    let authorizeNet: FakeAuthorizeNetApi;

    beforeAll(async () => {
      authorizeNet = await startFakeAuthorizeNetApi();
      process.env.AUTHORIZE_NET_API_BASE_URL = authorizeNet.url;
    });
    afterAll(async () => {
      delete process.env.AUTHORIZE_NET_API_BASE_URL;
      await authorizeNet?.stop();
    });

    it('stores the delivery and records the payment fetched from Authorize.Net, refusing it unsigned', async () => {
      // Prepare
      if (c === undefined) throw new Error('no authorize_net thin case in the fixtures');
      const tenant = await tenantFor(c.psp, c.secret);
      await setProviderApiKey(tenant.merchant.id, c.psp, AUTHORIZE_NET_TEST_API_KEY);
      authorizeNet.seedTransaction({
        transId: '60020981676',
        responseCode: 2,
        responseReasonCode: 2,
        authAmount: 45.0,
        customer: { email: 'anet.customer@example.com' },
      });
      const path = `/${c.psp}/${tenant.merchant.id}`;
      // Act
      const response = await post(path, c.failed(publicUrl(path)));
      const unsigned = await post(path, { ...c.failed(publicUrl(path)), headers: { 'content-type': 'application/json' } });
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      expect(unsigned.status).toBe(401);
      expect(await paymentsOf(tenant, c.psp)).toEqual([
        expect.objectContaining({
          psp: 'authorize_net',
          provider_payment_id: '60020981676',
          amount: 4500,
          currency: 'usd',
          decline_code: '2',
          customer_email: 'anet.customer@example.com',
        }),
      ]);
      expect(deadLetters().filter((letter) => letter.body.includes(response.body.data.id))).toEqual([]);
    });
  });

  it('verifies PayPal against the certificate its loopback cert URL serves, and refuses a cert URL elsewhere', async () => {
    // Prepare
    const paypal = providerCases.find((c) => c.psp === 'paypal') as ProviderCase;
    const tenant = await tenantFor('paypal', paypal.secret);
    const path = `/paypal/${tenant.merchant.id}`;
    const delivery = paypal.failed(publicUrl(path));
    const certUrl = new URL(delivery.headers['paypal-cert-url'] as string);
    const elsewhere = { ...delivery, headers: { ...delivery.headers, 'paypal-cert-url': `http://127.0.0.1:1${certUrl.pathname}` } };
    // Act
    const accepted = await post(path, delivery);
    const refused = await post(path, elsewhere);
    // Assess
    expect(certUrl.hostname).toBe('127.0.0.1');
    expect(accepted.status).toBe(200);
    expect(refused.status).toBe(401);
    // The fetcher caches per URL, so the server may have answered an earlier PayPal test's fetch.
    expect(paypalCertificateRequests).toContain(certUrl.pathname);
  });

  it('records one payment when the same delivery is posted twice', async () => {
    // Prepare
    const secret = 'whsec_twice_0000000000000000000000';
    const tenant = await tenantFor('stripe', secret);
    const path = `/stripe/${tenant.merchant.id}`;
    // Act
    const first = await post(path, stripeFailedFor(secret));
    await stack.runtime.queues.drain();
    const second = await post(path, stripeFailedFor(secret));
    await stack.runtime.queues.drain();
    // Assess
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(await paymentsOf(tenant, 'stripe')).toHaveLength(1);
  });

  describe('one stored payload per provider event', () => {
    /** Posts through queues whose consumer only records the messages it receives. */
    const postCounting = async (posts: () => Promise<Array<Awaited<ReturnType<typeof post>>>>) => {
      const messages: string[] = [];
      const queues = new LocalQueues({
        consumers: {
          'inbound-webhooks': async (event) => {
            messages.push(...event.Records.map((record) => record.body));
          },
        },
      });
      registerLocalQueueTransport(queues);
      try {
        const responses = await posts();
        await queues.drain();
        return { responses, messages };
      } finally {
        registerLocalQueueTransport(stack.runtime.queues);
      }
    };

    it('stores a replayed event (signed anew) once, answers each replay 200 with the first id, and enqueues it once', async () => {
      // Prepare
      const secret = 'whsec_replay_0000000000000000000000';
      const tenant = await tenantFor('stripe', secret);
      const path = `/stripe/${tenant.merchant.id}`;
      const otherEvent = stripeFailedFor(secret).body.replace('evt_3PfXh2LkdIwHu7ix0Kk1yXgL', 'evt_3PfXh2LkdIwHu7ixOTHER1');
      // Act
      const { responses, messages } = await postCounting(async () => [
        await post(path, stripeFailedFor(secret)),
        await post(path, stripeFailedFor(secret, stripeFailedFor(secret).body)),
        await post(path, stripeFailedFor(secret)),
        await post(path, stripeFailedFor(secret, otherEvent)),
      ]);
      // Assess
      const [first, second, third, other] = responses as [
        Awaited<ReturnType<typeof post>>,
        Awaited<ReturnType<typeof post>>,
        Awaited<ReturnType<typeof post>>,
        Awaited<ReturnType<typeof post>>,
      ];
      expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
      expect([second.body.data.id, third.body.data.id]).toEqual([first.body.data.id, first.body.data.id]);
      expect(other.body.data.id).not.toBe(first.body.data.id);
      expect((await storedDeliveriesOf(tenant.merchant.id)).sort()).toEqual([first.body.data.id, other.body.data.id].sort());
      expect(messages.filter((message) => message.includes(first.body.data.id))).toHaveLength(1);
      expect(messages.filter((message) => message.includes(other.body.data.id))).toHaveLength(1);
    });

    it("stores each of Mollie's classic calls, whose same body announces each status change of the payment", async () => {
      // Prepare
      const tenant = await tenantFor('mollie', 'mollie_secret_classic_000000000000');
      const path = `/mollie/${tenant.merchant.id}`;
      // Act
      const { responses, messages } = await postCounting(async () => [await post(path, mollieClassic()), await post(path, mollieClassic())]);
      // Assess
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      const ids = responses.map((response) => response.body.data.id);
      expect(new Set(ids).size).toBe(2);
      expect((await storedDeliveriesOf(tenant.merchant.id)).sort()).toEqual([...ids].sort());
      expect(messages).toHaveLength(2);
    });

    it.each([
      [
        'a Stripe body that is not JSON',
        'stripe',
        'whsec_notjson_000000000000000000000',
        (secret: string) => stripeFailedFor(secret, 'payment failed, see dashboard'),
      ],
      ['a Stripe body that is a JSON array', 'stripe', 'whsec_array_00000000000000000000000', (secret: string) => stripeFailedFor(secret, '[{"id":"evt_1"}]')],
      [
        'a Stripe body that is JSON cut short',
        'stripe',
        'whsec_cut_000000000000000000000000',
        (secret: string) => stripeFailedFor(secret, stripeFailedFor(secret).body.slice(0, 40)),
      ],
      [
        'a Braintree form whose bt_payload is not XML',
        'braintree',
        'bt_public_key:bt_private_key_0000000000',
        (secret: string) => braintreeSigned(secret, 'this is <not xml'),
      ],
    ])('answers %s, correctly signed, with 400 invalid_request, storing and enqueueing nothing', async (_name, psp, secret, delivery) => {
      // Prepare
      const tenant = await tenantFor(psp, secret);
      // Act
      const { responses, messages } = await postCounting(async () => [await post(`/${psp}/${tenant.merchant.id}`, delivery(secret))]);
      // Assess
      expect(responses[0]?.status).toBe(400);
      expect(responses[0]?.body.error.code).toBe('invalid_request');
      expect(await storedDeliveriesOf(tenant.merchant.id)).toEqual([]);
      expect(messages).toEqual([]);
    });

    it('still answers an unsigned non-JSON body with 401', async () => {
      // Prepare
      const tenant = await tenantFor('stripe', 'whsec_unsigned_junk_0000000000000000');
      // Act
      const response = await post(`/stripe/${tenant.merchant.id}`, { body: 'payment failed, see dashboard', headers: { 'content-type': 'text/plain' } });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('invalid_signature');
    });
  });

  it('records exactly one payment event when 200 duplicate deliveries of one event arrive at once', async () => {
    // Prepare
    const secret = 'whsec_burst_00000000000000000000000';
    const tenant = await tenantFor('stripe', secret);
    const path = `/stripe/${tenant.merchant.id}`;
    const delivery = stripeFailedFor(secret);
    // Act
    const responses = await Promise.all(Array.from({ length: 200 }, () => post(path, delivery)));
    await stack.runtime.queues.drain();
    // Assess
    expect(responses.map((response) => response.status)).toEqual(Array(200).fill(200));
    expect(await paymentsOf(tenant, 'stripe')).toHaveLength(1);
    expect(deadLetters().filter((letter) => responses.some((response) => letter.body.includes(response.body.data.id)))).toEqual([]);
  }, 120_000);

  it('acknowledges an event type the service does not use and records nothing', async () => {
    // Prepare
    const secret = 'whsec_unused_000000000000000000000';
    const tenant = await tenantFor('stripe', secret);
    // Act
    const response = await post(`/stripe/${tenant.merchant.id}`, stripeUnusedEvent(secret));
    await stack.runtime.queues.drain();
    // Assess
    expect(response.status).toBe(200);
    expect(await paymentsOf(tenant, 'stripe')).toEqual([]);
    expect(deadLetters().filter((letter) => letter.body.includes(response.body.data.id))).toEqual([]);
  });

  it('dead-letters a verified body that is not what the provider documents after maxReceiveCount, writing no payment or customer', async () => {
    // Prepare
    const secret = 'whsec_poison_000000000000000000000';
    const tenant = await tenantFor('stripe', secret);
    // Act
    const { response, letters } = await postUntilDeadLettered(`/stripe/${tenant.merchant.id}`, stripePoisonEvent(secret));
    // Assess
    expect(response.status).toBe(200);
    expect(letters.map((letter) => letter.receiveCount)).toEqual([INBOUND_MAX_RECEIVES]);
    expect(await paymentsOf(tenant, 'stripe')).toEqual([]);
    const customers = await call<{ data: unknown[] }>(`${stack.api_url}/customers`, { key: tenant.key });
    expect(customers.body.data).toEqual([]);
  });

  it('dead-letters a failed payment whose provider sends no email when no customer is known', async () => {
    // Prepare
    const paddle = providerCases.find((c) => c.psp === 'paddle') as ProviderCase;
    const tenant = await tenantFor('paddle', paddle.secret);
    const path = `/paddle/${tenant.merchant.id}`;
    // Act
    const { response, letters } = await postUntilDeadLettered(path, paddle.failed(publicUrl(path)));
    const message = { kind: 'provider_webhook', merchant_id: tenant.merchant.id, psp: 'paddle', webhook_log_id: response.body.data.id };
    // Assess
    expect(response.status).toBe(200);
    await expect(processProviderWebhook(message, {} as never)).rejects.toThrow(UnknownWebhookCustomerError);
    expect(letters.map((letter) => letter.receiveCount)).toEqual([INBOUND_MAX_RECEIVES]);
    expect(await paymentsOf(tenant, 'paddle')).toEqual([]);
  });

  it("files the stored delivery among the customer's data, and erasing the customer removes it", async () => {
    // Prepare
    const secret = 'whsec_erase_0000000000000000000000';
    const tenant = await tenantFor('stripe', secret);
    const response = await post(`/stripe/${tenant.merchant.id}`, stripeFailedFor(secret));
    await stack.runtime.queues.drain();
    const [payment] = await paymentsOf(tenant, 'stripe');
    const customerId = payment?.customer_id as string;
    const filed = (await gsi2Of(tenant.merchant.id, customerId)).filter((item) => item.entity === 'webhook_log');
    // Act
    const erased = await call(`${stack.api_url}/customers/${customerId}`, { method: 'DELETE', key: tenant.key });
    // Assess
    expect(filed.map((item) => item.id)).toEqual([response.body.data.id]);
    expect(erased.status).toBe(200);
    expect(await getWebhookLog(tenant.merchant.id, response.body.data.id)).toBeUndefined();
  });

  async function webhookLogsOf(merchantId: string): Promise<unknown[]> {
    const { Items } = await documentClient.send(
      new QueryCommand({
        TableName: process.env.TABLE_NAME as string,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': `M#${merchantId}`, ':sk': 'WHK#' },
      }),
    );
    return Items ?? [];
  }
});
