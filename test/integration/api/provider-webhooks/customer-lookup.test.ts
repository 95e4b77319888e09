/**
 * Failed payments whose provider event carries no customer email (Paddle) and whose customer is
 * unknown here (Mollie next-gen events with an embedded payment, Stripe, Checkout.com and
 * Braintree events without email, too), end to end over real HTTP and DynamoDB Local: the
 * inbound-webhooks consumer looks the customer up through the provider's API (a loopback fake in
 * test/fakes, reached through PADDLE_API_BASE_URL / MOLLIE_API_BASE_URL / STRIPE_API_BASE_URL /
 * CHECKOUT_API_BASE_URL / BRAINTREE_API_BASE_URL, read at call time) with the merchant's API key
 * (`setProviderApiKey`).
 */
import { createHmac } from 'node:crypto';
import { processProviderWebhook, UnknownWebhookCustomerError } from '#consumers/provider-webhook';
import { setProviderApiKey, setProviderSecret } from '#data/provider-secret-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { BRAINTREE_TEST_API_KEY, BRAINTREE_TEST_MERCHANT_ID, type FakeBraintreeApi, startFakeBraintreeApi } from '#test/fakes/braintree-api';
import { CHECKOUT_TEST_SECRET_KEY, type FakeCheckoutApi, startFakeCheckoutApi } from '#test/fakes/checkout-api';
import { type FakeMollieApi, MOLLIE_TEST_API_KEY, startFakeMollieApi } from '#test/fakes/mollie-api';
import { type FakePaddleApi, PADDLE_TEST_API_KEY, startFakePaddleApi } from '#test/fakes/paddle-api';
import { type FakeStripeApi, STRIPE_TEST_SECRET_KEY, startFakeStripeApi } from '#test/fakes/stripe-api';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { type Delivery, INBOUND_MAX_RECEIVES, type PaymentBody, type ReceivedBody, providerCases, stripeFailedFor } from '#test/fixtures/provider-webhooks';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import { postUntilDeadLettered } from '#test/fixtures/inbound-dead-letters';

const PADDLE_CUSTOMER_ID = 'ctm_01h8e18bxp9hby49dnm8ewf0m0';

/** The part of the braintree SDK these tests use: its signer (it ships no type declarations). */
interface BraintreeSdk {
  readonly BraintreeGateway: new (config: {
    environment: unknown;
    merchantId: string;
    publicKey: string;
    privateKey: string;
  }) => { readonly webhookTesting: { sampleSignature(payload: string): string } };
  readonly Environment: { readonly Sandbox: unknown };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const braintree = require('braintree') as BraintreeSdk;

/** A Stripe payment_intent.payment_failed whose card carries no billing email and whose intent no receipt_email. */
const stripeFailedWithoutEmail = (customerId: string): string =>
  JSON.stringify({
    id: 'evt_3PgAa1LkdIwHu7ix1NoEmail',
    object: 'event',
    api_version: '2024-06-20',
    created: Math.floor(Date.now() / 1000),
    type: 'payment_intent.payment_failed',
    data: {
      object: {
        id: 'pi_3PgAa1LkdIwHu7ix1NoEmail',
        object: 'payment_intent',
        amount: 2900,
        currency: 'eur',
        customer: customerId,
        invoice: 'in_1PgAZzLkdIwHu7ixNoEmail',
        receipt_email: null,
        status: 'requires_payment_method',
        last_payment_error: {
          charge: 'ch_3PgAa1LkdIwHu7ix1NoEmail',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          type: 'card_error',
          payment_method: {
            id: 'pm_1PgAZyLkdIwHu7ixNoEmail',
            object: 'payment_method',
            billing_details: { email: null, name: null },
            card: { brand: 'visa', last4: '4242' },
            type: 'card',
          },
        },
      },
    },
  });

describe('customer lookup through the provider API for failed payments without email', () => {
  const paddleCase = providerCases.find((c) => c.psp === 'paddle');
  if (paddleCase === undefined) throw new Error('no paddle case in the fixtures');
  const paddleSecret = paddleCase.secret;
  /** The fixture's Paddle transaction.payment_failed (no email), optionally naming another customer, signed as Paddle does. */
  const paddleFailed = (customerId = PADDLE_CUSTOMER_ID): Delivery => {
    const body = paddleCase.failed('').body.replace(PADDLE_CUSTOMER_ID, customerId);
    const ts = Math.floor(Date.now() / 1000);
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'paddle-signature': `ts=${ts};h1=${createHmac('sha256', paddleSecret).update(`${ts}:${body}`).digest('hex')}`,
      },
    };
  };

  let stack: LocalStack;
  let paddle: FakePaddleApi;
  let mollie: FakeMollieApi;
  let stripe: FakeStripeApi;
  let checkout: FakeCheckoutApi;
  let braintreeGateway: FakeBraintreeApi;

  beforeAll(async () => {
    [stack, paddle, mollie, stripe, checkout, braintreeGateway] = await Promise.all([
      startTestStack(),
      startFakePaddleApi(),
      startFakeMollieApi(),
      startFakeStripeApi(),
      startFakeCheckoutApi(),
      startFakeBraintreeApi(),
    ]);
    process.env.PADDLE_API_BASE_URL = paddle.url;
    process.env.MOLLIE_API_BASE_URL = mollie.url;
    process.env.STRIPE_API_BASE_URL = stripe.url;
    process.env.CHECKOUT_API_BASE_URL = checkout.url;
    process.env.BRAINTREE_API_BASE_URL = braintreeGateway.url;
    paddle.seedCustomer({ id: PADDLE_CUSTOMER_ID, name: 'Sam Miller', email: 'sam.miller@example.com' });
    paddle.seedCustomer({ id: 'ctm_noemail000000000000000000', name: 'No Email' });
  });
  afterAll(async () => {
    for (const variable of ['PADDLE_API_BASE_URL', 'MOLLIE_API_BASE_URL', 'STRIPE_API_BASE_URL', 'CHECKOUT_API_BASE_URL', 'BRAINTREE_API_BASE_URL'])
      delete process.env[variable];
    await Promise.all([stack?.stop(), paddle?.stop(), mollie?.stop(), stripe?.stop(), checkout?.stop(), braintreeGateway?.stop()]);
  });

  const post = (path: string, delivery: Delivery) =>
    call<ReceivedBody>(`${originOf(stack)}${path}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers });
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
  const postWithRedeliveries = (path: string, delivery: Delivery) => postUntilDeadLettered(stack, () => post(path, delivery));
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
      expect.objectContaining({
        psp: 'paddle',
        provider_payment_id: 'txn_01h8dzxgkvdwemdhbpcapj2tbj',
        amount: 65215,
        currency: 'usd',
        decline_code: 'not_enough_balance',
        customer_email: 'sam.miller@example.com',
      }),
    ]);
    expect(paddle.requests.slice(requestsBefore).map((r) => [r.path, r.headers.authorization])).toEqual([
      [`/customers/${PADDLE_CUSTOMER_ID}`, `Bearer ${PADDLE_TEST_API_KEY}`],
    ]);
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
    expect(await paymentsOf(tenant, 'paddle')).toEqual([
      expect.objectContaining({ provider_payment_id: 'txn_01h8dzxgkvdwemdhbpcapj2tbj', customer_email: 'sam.miller@example.com' }),
    ]);
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
      expect.objectContaining({
        psp: 'mollie',
        provider_payment_id: 'tr_5B8cwPMGnU6qLbRvo7qEZo',
        amount: 1000,
        currency: 'eur',
        decline_code: 'insufficient_funds',
        customer_email: 'eva.bakker@example.nl',
      }),
    ]);
    expect(mollie.requests.slice(requestsBefore).map((r) => r.path)).toEqual(['/v2/customers/cst_8wmqcHMN4U']);
    expect(lettersOf(response.body.data.id)).toEqual([]);
  });

  /** A tenant with the provider's webhook secret and API key. */
  const tenantFor = async (psp: 'stripe' | 'checkout' | 'braintree', apiKey: string): Promise<Tenant> => {
    const providerCase = providerCases.find((c) => c.psp === psp);
    if (providerCase === undefined) throw new Error(`no ${psp} case in the fixtures`);
    const tenant = await newTenant(['admin'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, psp, providerCase.secret);
    await setProviderApiKey(tenant.merchant.id, psp, apiKey);
    return tenant;
  };
  const secretOf = (psp: string): string => providerCases.find((c) => c.psp === psp)?.secret ?? '';

  it('records a Stripe failed payment without email under the email of the customer fetched through the stripe SDK', async () => {
    // Prepare
    const tenant = await tenantFor('stripe', STRIPE_TEST_SECRET_KEY);
    stripe.seedCustomer({ id: 'cus_QXnoEmail0001', name: 'Lena Fischer', email: 'lena.fischer@example.de' });
    const requestsBefore = stripe.requests.length;
    // Act
    const response = await post(`/stripe/${tenant.merchant.id}`, stripeFailedFor(secretOf('stripe'), stripeFailedWithoutEmail('cus_QXnoEmail0001')));
    await stack.runtime.queues.drain();
    // Assess
    expect(response.status).toBe(200);
    expect(await paymentsOf(tenant, 'stripe')).toEqual([
      expect.objectContaining({
        psp: 'stripe',
        provider_payment_id: 'pi_3PgAa1LkdIwHu7ix1NoEmail',
        amount: 2900,
        currency: 'eur',
        decline_code: 'insufficient_funds',
        customer_email: 'lena.fischer@example.de',
      }),
    ]);
    expect(stripe.requests.slice(requestsBefore).map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['GET', '/v1/customers/cus_QXnoEmail0001', `Bearer ${STRIPE_TEST_SECRET_KEY}`],
    ]);
    expect(lettersOf(response.body.data.id)).toEqual([]);
  });

  it('dead-letters a Stripe failed payment without email with UnknownWebhookCustomerError when the customer was deleted at Stripe', async () => {
    // Prepare
    const tenant = await tenantFor('stripe', STRIPE_TEST_SECRET_KEY);
    stripe.seedDeletedCustomer('cus_QXdeleted0001');
    // Act
    const { response, letters } = await postWithRedeliveries(
      `/stripe/${tenant.merchant.id}`,
      stripeFailedFor(secretOf('stripe'), stripeFailedWithoutEmail('cus_QXdeleted0001')),
    );
    // Assess
    expect(response.status).toBe(200);
    expect(letters.map((letter) => letter.receiveCount)).toEqual([INBOUND_MAX_RECEIVES]);
    await expect(processProviderWebhook({ ...messageOf(tenant, response.body.data.id), psp: 'stripe' }, {} as never)).rejects.toThrow(
      UnknownWebhookCustomerError,
    );
    expect(await paymentsOf(tenant, 'stripe')).toEqual([]);
  });

  it('records a Checkout.com declined payment without email under the email of the customer fetched from Checkout.com', async () => {
    // Prepare
    const tenant = await tenantFor('checkout', CHECKOUT_TEST_SECRET_KEY);
    checkout.seedCustomer({ id: 'cus_y3oqhf46pyzuxjbcn2giaqnb44', name: 'Diana Prince', email: 'diana.prince@example.com' });
    const body = JSON.stringify({
      id: 'evt_az5sblvku4ge3dwpztvyizgcau',
      type: 'payment_declined',
      version: '1.0.29',
      created_on: '2026-03-10T09:31:19Z',
      data: {
        id: 'pay_mbabizu24mvu3mela5njyhpit4',
        action_id: 'act_mbabizu24mvu3mela5njyhpit4',
        amount: 6500,
        currency: 'USD',
        customer: { id: 'cus_y3oqhf46pyzuxjbcn2giaqnb44' },
        response_code: '20051',
        response_summary: 'Insufficient Funds',
        source: { id: 'src_nwd3m4in3hkuddfpjsaevunhdy', type: 'card', scheme: 'VISA', last_4: '4242' },
      },
    });
    const requestsBefore = checkout.requests.length;
    // Act
    const response = await post(`/checkout/${tenant.merchant.id}`, {
      body,
      headers: { 'content-type': 'application/json', 'cko-signature': createHmac('sha256', secretOf('checkout')).update(body).digest('hex') },
    });
    await stack.runtime.queues.drain();
    // Assess
    expect(response.status).toBe(200);
    expect(await paymentsOf(tenant, 'checkout')).toEqual([
      expect.objectContaining({
        psp: 'checkout',
        provider_payment_id: 'pay_mbabizu24mvu3mela5njyhpit4',
        amount: 6500,
        currency: 'usd',
        decline_code: '20051',
        customer_email: 'diana.prince@example.com',
      }),
    ]);
    expect(checkout.requests.slice(requestsBefore).map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/customers/cus_y3oqhf46pyzuxjbcn2giaqnb44', `Bearer ${CHECKOUT_TEST_SECRET_KEY}`],
    ]);
    expect(lettersOf(response.body.data.id)).toEqual([]);
  });

  it('records a Braintree failed subscription charge without email under the email of the customer fetched through the braintree SDK', async () => {
    // Prepare
    const tenant = await tenantFor('braintree', BRAINTREE_TEST_API_KEY);
    braintreeGateway.seedCustomer({ id: 'cust_noemail_5120', firstName: 'Grace', lastName: 'Hopper', email: 'grace.hopper@example.com' });
    const xml = `<notification>
  <timestamp type="datetime">2026-03-10T11:59:57Z</timestamp>
  <kind>subscription_charged_unsuccessfully</kind>
  <subject><subscription><id>silver_monthly_5120</id><status>Past Due</status><price>19.00</price>
    <transactions type="array"><transaction>
      <id>9k4t1wqz</id><status>processor_declined</status><type>sale</type>
      <currency-iso-code>EUR</currency-iso-code><amount>19.00</amount>
      <processor-response-code>2001</processor-response-code>
      <subscription-id>silver_monthly_5120</subscription-id>
      <customer><id>cust_noemail_5120</id></customer>
    </transaction></transactions>
  </subscription></subject>
</notification>`;
    const [publicKey = '', privateKey = ''] = secretOf('braintree').split(':');
    const signer = new braintree.BraintreeGateway({ environment: braintree.Environment.Sandbox, merchantId: 'merchant_1', publicKey, privateKey });
    const payload = `${Buffer.from(xml, 'utf8').toString('base64')}\n`;
    const delivery = {
      body: new URLSearchParams({ bt_signature: signer.webhookTesting.sampleSignature(payload), bt_payload: payload }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
    const requestsBefore = braintreeGateway.requests.length;
    // Act
    const response = await post(`/braintree/${tenant.merchant.id}`, delivery);
    await stack.runtime.queues.drain();
    // Assess
    expect(response.status).toBe(200);
    expect(await paymentsOf(tenant, 'braintree')).toEqual([
      expect.objectContaining({
        psp: 'braintree',
        provider_payment_id: '9k4t1wqz',
        amount: 1900,
        currency: 'eur',
        decline_code: '2001',
        customer_email: 'grace.hopper@example.com',
      }),
    ]);
    expect(braintreeGateway.requests.slice(requestsBefore).map((r) => r.path)).toEqual([
      `/merchants/${BRAINTREE_TEST_MERCHANT_ID}/customers/cust_noemail_5120`,
    ]);
    expect(lettersOf(response.body.data.id)).toEqual([]);
  });
});
