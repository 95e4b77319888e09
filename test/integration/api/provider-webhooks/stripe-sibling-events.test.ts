/**
 * One failed Stripe renewal arrives as three signed events, `charge.failed`,
 * `payment_intent.payment_failed` and `invoice.payment_failed`, each with an event id of its own;
 * end to end over real HTTP and DynamoDB Local, they must leave exactly one failed payment (one
 * recovery, so one retry), whatever their order and however close together they arrive: all three
 * name the PaymentIntent, and ingest deduplicates failures by provider payment id.
 *
 * From API version 2025-03-31.basil on, the invoice names no PaymentIntent and the PaymentIntent
 * no invoice (https://docs.stripe.com/changelog/basil/2025-03-31/add-support-for-multiple-partial-payments-on-invoices):
 * the consumer fetches the invoice's payments from Stripe's API (a loopback fake, through
 * STRIPE_API_BASE_URL and the merchant's API key) so that the invoice event, too, names the
 * PaymentIntent; without the key, the invoice event fails (for the DLQ) rather than open a
 * second recovery.
 */
import { processProviderWebhook, ProviderApiKeyMissingError } from '#consumers/provider-webhook';
import type { LocalStack } from '#lib/local/local-stack';
import { type FakeStripeApi, STRIPE_INVOICE_WITH_EXPANDED_INTENTS_ROUTE, STRIPE_TEST_SECRET_KEY, startFakeStripeApi } from '#test/fakes/stripe-api';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { type PaymentBody, type ReceivedBody, providerCases, stripeFailedFor } from '#test/fixtures/provider-webhooks';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import { setProviderApiKey, setProviderSecret } from '#data/provider-secret-repository';

const PAYMENT_INTENT = 'pi_3PhBb2LkdIwHu7ix0Sibling';
const CHARGE = 'ch_3PhBb2LkdIwHu7ix0Sibling';
const INVOICE = 'in_1PhBa9LkdIwHu7ixSibling';
const CUSTOMER = 'cus_QYsibling0001';

const created = (): number => Math.floor(Date.now() / 1000);

/** The three events of one failed renewal, as Stripe sends them on API version 2024-06-20. */
const siblingEvents = (): Record<'charge' | 'intent' | 'invoice', string> => ({
  charge: JSON.stringify({
    id: 'evt_3PhBb2LkdIwHu7ix0ChgFail',
    object: 'event',
    api_version: '2024-06-20',
    created: created(),
    type: 'charge.failed',
    data: {
      object: {
        id: CHARGE,
        object: 'charge',
        amount: 4999,
        currency: 'usd',
        customer: CUSTOMER,
        invoice: INVOICE,
        payment_intent: PAYMENT_INTENT,
        billing_details: { email: 'jenny.rosen@example.com', name: 'Jenny Rosen' },
        failure_code: 'card_declined',
        outcome: { type: 'issuer_declined', reason: 'insufficient_funds', network_decline_code: '51' },
        payment_method_details: { type: 'card', card: { brand: 'visa', last4: '9995' } },
        status: 'failed',
      },
    },
  }),
  intent: JSON.stringify({
    id: 'evt_3PhBb2LkdIwHu7ix0PiFail',
    object: 'event',
    api_version: '2024-06-20',
    created: created(),
    type: 'payment_intent.payment_failed',
    data: {
      object: {
        id: PAYMENT_INTENT,
        object: 'payment_intent',
        amount: 4999,
        currency: 'usd',
        customer: CUSTOMER,
        invoice: INVOICE,
        latest_charge: CHARGE,
        status: 'requires_payment_method',
        last_payment_error: {
          charge: CHARGE,
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          network_decline_code: '51',
          type: 'card_error',
          payment_method: {
            id: 'pm_1PhBa8LkdIwHu7ixSibling',
            object: 'payment_method',
            billing_details: { email: 'jenny.rosen@example.com', name: 'Jenny Rosen' },
            card: { brand: 'visa', last4: '9995' },
            type: 'card',
          },
        },
      },
    },
  }),
  invoice: JSON.stringify({
    id: 'evt_1PhBb3LkdIwHu7ixInvFail',
    object: 'event',
    api_version: '2024-06-20',
    created: created(),
    type: 'invoice.payment_failed',
    data: {
      object: {
        id: INVOICE,
        object: 'invoice',
        amount_due: 4999,
        amount_paid: 0,
        attempt_count: 1,
        billing_reason: 'subscription_cycle',
        charge: CHARGE,
        currency: 'usd',
        customer: CUSTOMER,
        customer_email: 'jenny.rosen@example.com',
        customer_name: 'Jenny Rosen',
        payment_intent: PAYMENT_INTENT,
        status: 'open',
        subscription: 'sub_1PhBa7LkdIwHu7ixSibling',
      },
    },
  }),
});

describe('stripe events of one failed renewal, end to end', () => {
  const stripeCase = providerCases.find((c) => c.psp === 'stripe');
  if (stripeCase === undefined) throw new Error('no stripe case in the fixtures');
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const stripeTenant = async (): Promise<Tenant> => {
    const tenant = await newTenant(['admin'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, 'stripe', stripeCase.secret);
    return tenant;
  };
  const post = (tenant: Tenant, body: string) => {
    const delivery = stripeFailedFor(stripeCase.secret, body);
    return call<ReceivedBody>(`${originOf(stack)}/stripe/${tenant.merchant.id}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers });
  };
  const paymentsOf = async (tenant: Tenant): Promise<PaymentBody[]> =>
    (await call<{ data: PaymentBody[] }>(`${stack.api_url}/payments?psp=stripe&per_page=100`, { key: tenant.key })).body.data;
  const lettersOf = (ids: readonly string[]) =>
    stack.runtime.queues.deadLetters('inbound-webhooks').filter((letter) => ids.some((id) => letter.body.includes(id)));

  it('records one failed payment, under the PaymentIntent, when the charge, payment intent and invoice events arrive one after another', async () => {
    // Prepare
    const tenant = await stripeTenant();
    const events = siblingEvents();
    const received: string[] = [];
    // Act
    for (const body of [events.charge, events.intent, events.invoice]) {
      const response = await post(tenant, body);
      expect(response.status).toBe(200);
      received.push(response.body.data.id);
      await stack.runtime.queues.drain();
    }
    // Assess
    const payments = await paymentsOf(tenant);
    expect(payments).toEqual([
      expect.objectContaining({
        psp: 'stripe',
        provider_payment_id: PAYMENT_INTENT,
        amount: 4999,
        currency: 'usd',
        decline_code: 'insufficient_funds',
        customer_email: 'jenny.rosen@example.com',
      }),
    ]);
    expect(lettersOf(received)).toEqual([]);
  });

  it('records one failed payment when the three events arrive together, invoice first, and are processed in one drain', async () => {
    // Prepare
    const tenant = await stripeTenant();
    const events = siblingEvents();
    // Act
    const responses = await Promise.all([events.invoice, events.charge, events.intent].map((body) => post(tenant, body)));
    await stack.runtime.queues.drain();
    // Assess
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(new Set(responses.map((response) => response.body.data.id)).size).toBe(3);
    const payments = await paymentsOf(tenant);
    expect(payments.map((payment) => [payment.provider_payment_id, payment.amount, payment.currency, payment.customer_email])).toEqual([
      [PAYMENT_INTENT, 4999, 'usd', 'jenny.rosen@example.com'],
    ]);
    expect(lettersOf(responses.map((response) => response.body.data.id))).toEqual([]);
  });
  describe('on API version 2025-03-31.basil (the invoice names no PaymentIntent, the PaymentIntent no invoice)', () => {
    const BASIL_CUSTOMER = 'cus_QbAsilSibling01';
    let fake: FakeStripeApi;
    let sequence = 0;

    beforeAll(async () => {
      fake = await startFakeStripeApi({ extraRoutes: [STRIPE_INVOICE_WITH_EXPANDED_INTENTS_ROUTE] });
      process.env.STRIPE_API_BASE_URL = fake.url;
    });
    afterAll(async () => {
      delete process.env.STRIPE_API_BASE_URL;
      await fake?.stop();
    });

    /** One basil failure: its ids (fresh per test) and its two events, as Stripe sends them. */
    const basilFailure = () => {
      sequence += 1;
      const suffix = String(sequence).padStart(2, '0');
      const ids = {
        invoice: `in_1QbAsgLkdIwHu7ixBasil0${suffix}`,
        intent: `pi_3QbAsiLkdIwHu7ix0Basil${suffix}`,
        subscription: `sub_1QbAsfLkdIwHu7ixBasil0${suffix}`,
      };
      const invoice = JSON.stringify({
        id: `evt_1QbAsiLkdIwHu7ixInvFail${suffix}`,
        object: 'event',
        api_version: '2025-03-31.basil',
        created: created(),
        type: 'invoice.payment_failed',
        data: {
          object: {
            id: ids.invoice,
            object: 'invoice',
            amount_due: 4999,
            amount_paid: 0,
            amount_remaining: 4999,
            attempt_count: 1,
            billing_reason: 'subscription_cycle',
            currency: 'usd',
            customer: BASIL_CUSTOMER,
            customer_email: 'jenny.rosen@example.com',
            customer_name: 'Jenny Rosen',
            parent: { type: 'subscription_details', subscription_details: { subscription: ids.subscription } },
            status: 'open',
          },
        },
      });
      const intent = JSON.stringify({
        id: `evt_3QbAsiLkdIwHu7ix0PiFail${suffix}`,
        object: 'event',
        api_version: '2025-03-31.basil',
        created: created(),
        type: 'payment_intent.payment_failed',
        data: {
          object: {
            id: ids.intent,
            object: 'payment_intent',
            amount: 4999,
            currency: 'usd',
            customer: BASIL_CUSTOMER,
            status: 'requires_payment_method',
            last_payment_error: {
              code: 'card_declined',
              decline_code: 'insufficient_funds',
              network_decline_code: '51',
              type: 'card_error',
              payment_method: {
                id: 'pm_1QbAsfLkdIwHu7ixBasil',
                object: 'payment_method',
                billing_details: { email: 'jenny.rosen@example.com', name: 'Jenny Rosen' },
                card: { brand: 'visa', last4: '9995' },
                type: 'card',
              },
            },
          },
        },
      });
      return { ids, events: { invoice, intent } };
    };

    /** The invoice and its failed PaymentIntent as Stripe's API shows them to the adapter's fetch. */
    const seedFailure = (ids: { invoice: string; intent: string }, options: { intentObject?: boolean } = {}) => {
      fake.seedInvoice({ id: ids.invoice, customer: BASIL_CUSTOMER, amountDue: 4999, currency: 'usd', paymentIntent: ids.intent });
      if (options.intentObject !== false) {
        fake.seedPaymentIntent({
          id: ids.intent,
          customer: BASIL_CUSTOMER,
          amount: 4999,
          currency: 'usd',
          lastPaymentError: { card: { id: 'pm_1QbAsfLkdIwHu7ixBasil', brand: 'visa' }, declineCode: 'insufficient_funds' },
        });
      }
    };
    const keyedTenant = async (): Promise<Tenant> => {
      const tenant = await stripeTenant();
      await setProviderApiKey(tenant.merchant.id, 'stripe', STRIPE_TEST_SECRET_KEY);
      return tenant;
    };
    const invoiceFetches = (invoice: string, from: number) =>
      fake.requests
        .slice(from)
        .filter((request) => request.path === `/v1/invoices/${invoice}`)
        .map((request) => [request.method, request.headers.authorization]);

    // Recorded from the invoice event, the payment keeps the invoice and subscription ids; recorded
    // from the PaymentIntent event (which, in basil, names neither), it has none, and the invoice
    // event is then a duplicate that changes nothing (ingest does not add ids to a recorded payment).
    it.each([
      ['the invoice event, then the PaymentIntent event', ['invoice', 'intent'] as const, true],
      ['the PaymentIntent event, then the invoice event', ['intent', 'invoice'] as const, false],
    ])('records one failed payment, under the PaymentIntent, when %s arrive one after another', async (_order, order, invoiceFirst) => {
      // Prepare
      const tenant = await keyedTenant();
      const { ids, events } = basilFailure();
      seedFailure(ids);
      const requestsBefore = fake.requests.length;
      const received: string[] = [];
      // Act
      for (const name of order) {
        const response = await post(tenant, events[name]);
        expect(response.status).toBe(200);
        received.push(response.body.data.id);
        await stack.runtime.queues.drain();
      }
      // Assess
      const payments = await paymentsOf(tenant);
      expect(payments).toEqual([
        expect.objectContaining({
          psp: 'stripe',
          provider_payment_id: ids.intent,
          amount: 4999,
          currency: 'usd',
          decline_code: 'insufficient_funds',
          customer_email: 'jenny.rosen@example.com',
        }),
      ]);
      expect(payments[0]).toMatchObject(
        invoiceFirst ? { invoice_id: ids.invoice, subscription_id: ids.subscription } : { invoice_id: null, subscription_id: null },
      );
      // The invoice event's PaymentIntent came from Stripe's API, with the merchant's key.
      expect(invoiceFetches(ids.invoice, requestsBefore)).toEqual([['GET', `Bearer ${STRIPE_TEST_SECRET_KEY}`]]);
      expect(lettersOf(received)).toEqual([]);
    });

    it.each([
      ['invoice first', ['invoice', 'intent'] as const],
      ['PaymentIntent first', ['intent', 'invoice'] as const],
    ])('records one failed payment when both events arrive together (%s) and are processed in one drain', async (_order, order) => {
      // Prepare
      const tenant = await keyedTenant();
      const { ids, events } = basilFailure();
      seedFailure(ids);
      // Act
      const responses = await Promise.all(order.map((name) => post(tenant, events[name])));
      await stack.runtime.queues.drain();
      // Assess
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      const payments = await paymentsOf(tenant);
      expect(payments.map((payment) => [payment.provider_payment_id, payment.amount, payment.currency, payment.customer_email])).toEqual([
        [ids.intent, 4999, 'usd', 'jenny.rosen@example.com'],
      ]);
      expect(lettersOf(responses.map((response) => response.body.data.id))).toEqual([]);
    });

    it('records the invoice event alone under the PaymentIntent its invoice lists, when Stripe answers the PaymentIntent as an id only', async () => {
      // Prepare
      const tenant = await keyedTenant();
      const { ids, events } = basilFailure();
      seedFailure(ids, { intentObject: false });
      // Act
      const response = await post(tenant, events.invoice);
      await stack.runtime.queues.drain();
      // Assess
      expect(response.status).toBe(200);
      const payments = await paymentsOf(tenant);
      expect(payments).toEqual([
        expect.objectContaining({
          provider_payment_id: ids.intent,
          amount: 4999,
          currency: 'usd',
          customer_email: 'jenny.rosen@example.com',
          status: expect.any(String),
        }),
      ]);
      expect(lettersOf([response.body.data.id])).toEqual([]);
    });

    it("fails the invoice event with ProviderApiKeyMissingError, recording nothing, without the merchant's Stripe API key; a redrive once the key is set adds no second payment", async () => {
      // Prepare
      const tenant = await stripeTenant();
      const { ids, events } = basilFailure();
      seedFailure(ids);
      // Act
      const invoiceResponse = await post(tenant, events.invoice);
      await stack.runtime.queues.drain();
      const message = { kind: 'provider_webhook', merchant_id: tenant.merchant.id, psp: 'stripe', webhook_log_id: invoiceResponse.body.data.id };
      const withoutKey = processProviderWebhook(message, {} as never);
      // Assess
      await expect(withoutKey).rejects.toThrow(ProviderApiKeyMissingError);
      expect(await paymentsOf(tenant)).toEqual([]);
      // Act: the PaymentIntent event needs no key; then the key is set and the invoice event redriven.
      const intentResponse = await post(tenant, events.intent);
      await stack.runtime.queues.drain();
      await setProviderApiKey(tenant.merchant.id, 'stripe', STRIPE_TEST_SECRET_KEY);
      await processProviderWebhook(message, {} as never);
      // Assess
      expect(intentResponse.status).toBe(200);
      expect((await paymentsOf(tenant)).map((payment) => [payment.provider_payment_id, payment.amount, payment.decline_code])).toEqual([
        [ids.intent, 4999, 'insufficient_funds'],
      ]);
    });
  });
});
