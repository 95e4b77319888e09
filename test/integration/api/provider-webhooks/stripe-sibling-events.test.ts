/**
 * One failed Stripe renewal arrives as three signed events, `charge.failed`,
 * `payment_intent.payment_failed` and `invoice.payment_failed`, each with an event id of its own;
 * end to end over real HTTP and DynamoDB Local, they must leave exactly one failed payment (one
 * recovery, so one retry), whatever their order and however close together they arrive: all three
 * name the PaymentIntent, and ingest deduplicates failures by provider payment id.
 */
import type { LocalStack } from '../../../../lib/local/local-stack';
import { call } from '../../../fixtures/http';
import { originOf, startTestStack } from '../../../fixtures/local-stack';
import { type PaymentBody, type ReceivedBody, providerCases, stripeFailedFor } from '../../../fixtures/provider-webhooks';
import { newTenant, type Tenant, UNLIMITED } from '../../../fixtures/tenants';
import { setProviderSecret } from '../../../../functions/data/provider-secret-repository';

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
          payment_method: { id: 'pm_1PhBa8LkdIwHu7ixSibling', object: 'payment_method', billing_details: { email: 'jenny.rosen@example.com', name: 'Jenny Rosen' }, card: { brand: 'visa', last4: '9995' }, type: 'card' },
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
  const paymentsOf = async (tenant: Tenant): Promise<PaymentBody[]> => (await call<{ data: PaymentBody[] }>(`${stack.api_url}/payments?psp=stripe&per_page=100`, { key: tenant.key })).body.data;
  const lettersOf = (ids: readonly string[]) => stack.runtime.queues.deadLetters('inbound-webhooks').filter((letter) => ids.some((id) => letter.body.includes(id)));

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
      expect.objectContaining({ psp: 'stripe', provider_payment_id: PAYMENT_INTENT, amount: 4999, currency: 'usd', decline_code: 'insufficient_funds', customer_email: 'jenny.rosen@example.com' }),
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
    expect(payments.map((payment) => [payment.provider_payment_id, payment.amount, payment.currency, payment.customer_email])).toEqual([[PAYMENT_INTENT, 4999, 'usd', 'jenny.rosen@example.com']]);
    expect(lettersOf(responses.map((response) => response.body.data.id))).toEqual([]);
  });
});
