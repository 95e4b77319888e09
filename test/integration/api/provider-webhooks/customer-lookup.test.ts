/**
 * Failed payments whose provider event carries no customer email (Paddle) and whose customer is
 * unknown here (Mollie next-gen events with an embedded payment, too), end to end over real HTTP and DynamoDB Local: the inbound-webhooks consumer looks
 * the customer up through the provider's API (a loopback fake in test/fakes, reached through
 * PADDLE_API_BASE_URL / MOLLIE_API_BASE_URL, read at call time) with the merchant's API key (`setProviderApiKey`).
 */
import { createHmac } from 'node:crypto';
import { registerLocalQueueTransport } from '../../../../functions/adapters/queue-sender';
import { handler as inboundWebhooks } from '../../../../functions/consumers/inbound-webhooks';
import { processProviderWebhook, UnknownWebhookCustomerError } from '../../../../functions/consumers/provider-webhook';
import { setProviderApiKey, setProviderSecret } from '../../../../functions/data/provider-secret-repository';
import type { LocalStack } from '../../../../lib/local/local-stack';
import { LocalQueues } from '../../../../lib/local/queue-hub';
import { type FakeMollieApi, MOLLIE_TEST_API_KEY, startFakeMollieApi } from '../../../fakes/mollie-api';
import { type FakePaddleApi, PADDLE_TEST_API_KEY, startFakePaddleApi } from '../../../fakes/paddle-api';
import { call } from '../../../fixtures/http';
import { originOf, startTestStack } from '../../../fixtures/local-stack';
import { type Delivery, INBOUND_MAX_RECEIVES, type PaymentBody, type ReceivedBody, providerCases } from '../../../fixtures/provider-webhooks';
import { newTenant, type Tenant, UNLIMITED } from '../../../fixtures/tenants';

const PADDLE_CUSTOMER_ID = 'ctm_01h8e18bxp9hby49dnm8ewf0m0';

describe('customer lookup through the provider API for failed payments without email', () => {
  const paddleCase = providerCases.find((c) => c.psp === 'paddle');
  if (paddleCase === undefined) throw new Error('no paddle case in the fixtures');
  const paddleSecret = paddleCase.secret;
  /** The fixture's Paddle transaction.payment_failed (no email), optionally naming another customer, signed as Paddle does. */
  const paddleFailed = (customerId = PADDLE_CUSTOMER_ID): Delivery => {
    const body = paddleCase.failed('').body.replace(PADDLE_CUSTOMER_ID, customerId);
    const ts = Math.floor(Date.now() / 1000);
    return { body, headers: { 'content-type': 'application/json', 'paddle-signature': `ts=${ts};h1=${createHmac('sha256', paddleSecret).update(`${ts}:${body}`).digest('hex')}` } };
  };

  let stack: LocalStack;
  let paddle: FakePaddleApi;
  let mollie: FakeMollieApi;

  beforeAll(async () => {
    [stack, paddle, mollie] = await Promise.all([startTestStack(), startFakePaddleApi(), startFakeMollieApi()]);
    process.env.PADDLE_API_BASE_URL = paddle.url;
    process.env.MOLLIE_API_BASE_URL = mollie.url;
    paddle.seedCustomer({ id: PADDLE_CUSTOMER_ID, name: 'Sam Miller', email: 'sam.miller@example.com' });
    paddle.seedCustomer({ id: 'ctm_noemail000000000000000000', name: 'No Email' });
  });
  afterAll(async () => {
    delete process.env.PADDLE_API_BASE_URL;
    delete process.env.MOLLIE_API_BASE_URL;
    await Promise.all([stack?.stop(), paddle?.stop(), mollie?.stop()]);
  });

  const post = (path: string, delivery: Delivery) => call<ReceivedBody>(`${originOf(stack)}${path}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers });
  const paymentsOf = async (tenant: Tenant, psp: string): Promise<PaymentBody[]> =>
    (await call<{ data: PaymentBody[] }>(`${stack.api_url}/payments?psp=${psp}&per_page=100`, { key: tenant.key })).body.data;
  const lettersOf = (id: string) => stack.runtime.queues.deadLetters('inbound-webhooks').filter((letter) => letter.body.includes(id));
  const paddleTenant = async (options: { apiKey?: string } = {}): Promise<Tenant> => {
    const tenant = await newTenant(['admin'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, 'paddle', paddleSecret);
    if (options.apiKey !== undefined) await setProviderApiKey(tenant.merchant.id, 'paddle', options.apiKey);
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
  const messageOf = (tenant: Tenant, logId: string) => ({ kind: 'provider_webhook', merchant_id: tenant.merchant.id, psp: 'paddle', webhook_log_id: logId });

  it('records the failed payment under the email Paddle holds for a customer never seen before', async () => {
    // Prepare
    const tenant = await paddleTenant({ apiKey: PADDLE_TEST_API_KEY });
    const requestsBefore = paddle.requests.length;
    // Act
    const response = await post(`/paddle/${tenant.merchant.id}`, paddleFailed());
    await stack.runtime.queues.drain();
    // Assess
    expect(response.status).toBe(200);
    expect(await paymentsOf(tenant, 'paddle')).toEqual([
      expect.objectContaining({ psp: 'paddle', provider_payment_id: 'txn_01h8dzxgkvdwemdhbpcapj2tbj', amount: 65215, currency: 'usd', decline_code: 'not_enough_balance', customer_email: 'sam.miller@example.com' }),
    ]);
    expect(paddle.requests.slice(requestsBefore).map((r) => [r.path, r.headers.authorization])).toEqual([[`/customers/${PADDLE_CUSTOMER_ID}`, `Bearer ${PADDLE_TEST_API_KEY}`]]);
    expect(lettersOf(response.body.data.id)).toEqual([]);
  });

  it('dead-letters the webhook with UnknownWebhookCustomerError, as before, when the merchant has no Paddle API key', async () => {
    // Prepare
    const tenant = await paddleTenant();
    const requestsBefore = paddle.requests.length;
    // Act
    const { response, letters } = await postWithRedeliveries(`/paddle/${tenant.merchant.id}`, paddleFailed());
    // Assess
    expect(response.status).toBe(200);
    expect(letters.map((letter) => letter.receiveCount)).toEqual([INBOUND_MAX_RECEIVES]);
    await expect(processProviderWebhook(messageOf(tenant, response.body.data.id), {} as never)).rejects.toThrow(UnknownWebhookCustomerError);
    expect(paddle.requests.length).toBe(requestsBefore);
    expect(await paymentsOf(tenant, 'paddle')).toEqual([]);
  });

  it('dead-letters the webhook with UnknownWebhookCustomerError when Paddle answers 404 for the customer', async () => {
    // Prepare
    const tenant = await paddleTenant({ apiKey: PADDLE_TEST_API_KEY });
    // Act
    const { response, letters } = await postWithRedeliveries(`/paddle/${tenant.merchant.id}`, paddleFailed('ctm_unknown00000000000000000000'));
    // Assess
    expect(response.status).toBe(200);
    expect(letters.map((letter) => letter.receiveCount)).toEqual([INBOUND_MAX_RECEIVES]);
    await expect(processProviderWebhook(messageOf(tenant, response.body.data.id), {} as never)).rejects.toThrow(UnknownWebhookCustomerError);
    expect(await paymentsOf(tenant, 'paddle')).toEqual([]);
  });

  it('dead-letters the webhook with UnknownWebhookCustomerError when Paddle holds no email for the customer', async () => {
    // Prepare
    const tenant = await paddleTenant({ apiKey: PADDLE_TEST_API_KEY });
    // Act
    const { response, letters } = await postWithRedeliveries(`/paddle/${tenant.merchant.id}`, paddleFailed('ctm_noemail000000000000000000'));
    // Assess
    expect(letters.map((letter) => letter.receiveCount)).toEqual([INBOUND_MAX_RECEIVES]);
    await expect(processProviderWebhook(messageOf(tenant, response.body.data.id), {} as never)).rejects.toThrow(UnknownWebhookCustomerError);
    expect(await paymentsOf(tenant, 'paddle')).toEqual([]);
  });

  it('records the payment on redelivery when Paddle answers 503 once', async () => {
    // Prepare
    const tenant = await paddleTenant({ apiKey: PADDLE_TEST_API_KEY });
    const requestsBefore = paddle.requests.length;
    paddle.failNextWith(503);
    // Act
    const { response, letters } = await postWithRedeliveries(`/paddle/${tenant.merchant.id}`, paddleFailed());
    // Assess
    expect(response.status).toBe(200);
    expect(letters).toEqual([]);
    expect(paddle.requests.slice(requestsBefore).map((r) => r.path)).toEqual([`/customers/${PADDLE_CUSTOMER_ID}`, `/customers/${PADDLE_CUSTOMER_ID}`]);
    expect(await paymentsOf(tenant, 'paddle')).toEqual([expect.objectContaining({ provider_payment_id: 'txn_01h8dzxgkvdwemdhbpcapj2tbj', customer_email: 'sam.miller@example.com' })]);
  });

  it('records a Mollie next-gen failed payment without email under the email of the customer fetched from Mollie', async () => {
    // Prepare
    const mollieCase = providerCases.find((c) => c.psp === 'mollie');
    if (mollieCase === undefined) throw new Error('no mollie case in the fixtures');
    const tenant = await newTenant(['admin'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, 'mollie', mollieCase.secret);
    await setProviderApiKey(tenant.merchant.id, 'mollie', MOLLIE_TEST_API_KEY);
    mollie.seedCustomer({ id: 'cst_8wmqcHMN4U', name: 'Eva Bakker', email: 'eva.bakker@example.nl' });
    const requestsBefore = mollie.requests.length;
    // Act
    const response = await post(`/mollie/${tenant.merchant.id}`, mollieCase.failed(''));
    await stack.runtime.queues.drain();
    // Assess
    expect(response.status).toBe(200);
    expect(await paymentsOf(tenant, 'mollie')).toEqual([
      expect.objectContaining({ psp: 'mollie', provider_payment_id: 'tr_5B8cwPMGnU6qLbRvo7qEZo', amount: 1000, currency: 'eur', decline_code: 'insufficient_funds', customer_email: 'eva.bakker@example.nl' }),
    ]);
    expect(mollie.requests.slice(requestsBefore).map((r) => r.path)).toEqual(['/v2/customers/cst_8wmqcHMN4U']);
    expect(lettersOf(response.body.data.id)).toEqual([]);
  });
});
