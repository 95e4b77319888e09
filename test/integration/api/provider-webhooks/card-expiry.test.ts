/**
 * The card on file's expiry from provider webhooks over real HTTP and DynamoDB Local: Stripe
 * events signed with the Stripe SDK, Chargebee's with its Basic credentials, drained through the
 * inbound-webhooks consumer; the customer shows it (GET /customers/{id} `card_expiry`).
 */
import Stripe from 'stripe';
import { setProviderSecret } from '#data/provider-secret-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

const STRIPE_SECRET = 'whsec_card_expiry_test';
const CHARGEBEE_SECRET = 'recovery-hooks:card-expiry';
const stripe = new Stripe('sk_test_offline');
let seq = 0;
const unique = (prefix: string): string => `${prefix}_${(seq += 1)}_${Math.random().toString(36).slice(2, 8)}`;

const stripeEvent = (type: string, object: Record<string, unknown>) => {
  const body = JSON.stringify({
    id: unique('evt'),
    object: 'event',
    api_version: '2024-06-20',
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
  });
  return {
    body,
    headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret: STRIPE_SECRET }) },
  };
};
const chargebeeEvent = (eventType: string, content: Record<string, unknown>) => ({
  body: JSON.stringify({ id: unique('ev'), occurred_at: Math.floor(Date.now() / 1000), object: 'event', api_version: 'v2', event_type: eventType, content }),
  headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(CHARGEBEE_SECRET).toString('base64')}` },
});

describe('card expiry from provider webhooks', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const post = async (psp: string, delivery: { body: string; headers: Record<string, string> }) => {
    const response = await call(`${originOf(stack)}/${psp}/${tenant.merchant.id}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers });
    expect(response.status).toBe(200);
    await stack.runtime.queues.drain();
  };
  const expiryOf = async (email: string) => {
    const byEmail = await call<{ data: { id: string } }>(`${stack.api_url}/customers/by-email/${encodeURIComponent(email)}`, { key: tenant.key });
    return (await call<{ data: { card_expiry: unknown } }>(`${stack.api_url}/customers/${byEmail.body.data.id}`, { key: tenant.key })).body.data.card_expiry;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, 'stripe', STRIPE_SECRET);
    await setProviderSecret(tenant.merchant.id, 'chargebee', CHARGEBEE_SECRET);
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it("stores a Stripe charge's card expiry, then the card updater's new one (payment_method.automatically_updated)", async () => {
    // Prepare
    const customer = unique('cus');
    const email = `${customer}@example.com`;
    const charge = {
      id: unique('ch'),
      object: 'charge',
      amount: 2000,
      currency: 'usd',
      customer,
      billing_details: { email, name: 'Card Holder' },
      failure_code: 'card_declined',
      outcome: { reason: 'insufficient_funds', network_decline_code: '51' },
      payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 11, exp_year: 2026 } },
    };
    // Act
    await post('stripe', stripeEvent('charge.failed', charge));
    const fromCharge = await expiryOf(email);
    await post(
      'stripe',
      stripeEvent('payment_method.automatically_updated', {
        id: unique('pm'),
        object: 'payment_method',
        customer,
        billing_details: { email },
        type: 'card',
        card: { brand: 'visa', last4: '4242', exp_month: 11, exp_year: 2030 },
      }),
    );
    // Assess
    expect(fromCharge).toEqual({ month: 11, year: 2026 });
    expect(await expiryOf(email)).toEqual({ month: 11, year: 2030 });
  }, 30_000);

  it("stores a Stripe PaymentIntent failure's card expiry (last_payment_error.payment_method.card)", async () => {
    // Prepare
    const customer = unique('cus');
    const email = `${customer}@example.com`;
    const intent = {
      id: unique('pi'),
      object: 'payment_intent',
      amount: 4999,
      currency: 'usd',
      customer,
      last_payment_error: {
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        payment_method: { id: unique('pm'), billing_details: { email }, card: { brand: 'mastercard', exp_month: 2, exp_year: 2027 }, type: 'card' },
      },
    };
    // Act
    await post('stripe', stripeEvent('payment_intent.payment_failed', intent));
    // Assess
    expect(await expiryOf(email)).toEqual({ month: 2, year: 2027 });
  }, 30_000);

  it("stores a Chargebee payment_failed card's expiry, replaces it on card_updated, and clears it on a payment source without a card", async () => {
    // Prepare
    const customerId = unique('cb');
    const email = `${customerId}@example.com`;
    const customer = { id: customerId, email, first_name: 'Ada', object: 'customer' };
    const transaction = {
      id: unique('txn'),
      customer_id: customerId,
      type: 'payment',
      amount: 4999,
      currency_code: 'EUR',
      status: 'failure',
      error_code: 'card_declined',
      error_detail: { decline_code: 'insufficient_funds' },
      object: 'transaction',
    };
    // Act
    await post(
      'chargebee',
      chargebeeEvent('payment_failed', { transaction, customer, card: { customer_id: customerId, expiry_month: 4, expiry_year: 2027, object: 'card' } }),
    );
    const failed = await expiryOf(email);
    await post(
      'chargebee',
      chargebeeEvent('card_updated', { customer, card: { customer_id: customerId, expiry_month: 8, expiry_year: 2031, object: 'card' } }),
    );
    const updated = await expiryOf(email);
    await post(
      'chargebee',
      chargebeeEvent('payment_source_added', { customer, payment_source: { customer_id: customerId, type: 'direct_debit', object: 'payment_source' } }),
    );
    // Assess
    expect(failed).toEqual({ month: 4, year: 2027 });
    expect(updated).toEqual({ month: 8, year: 2031 });
    expect(await expiryOf(email)).toBeNull();
  }, 30_000);

  it("keeps the expiry Stripe's customer.source.expiring and Chargebee's card_expiry_reminder announce for known customers, and creates no customer", async () => {
    // Prepare: a Stripe customer and a Chargebee customer known from a failure without card details
    const stripeCustomer = unique('cus');
    const stripeEmail = `${stripeCustomer}@example.com`;
    await post(
      'stripe',
      stripeEvent('charge.failed', {
        id: unique('ch'),
        object: 'charge',
        amount: 1000,
        currency: 'usd',
        customer: stripeCustomer,
        billing_details: { email: stripeEmail },
        outcome: { reason: 'insufficient_funds' },
      }),
    );
    const chargebeeCustomer = unique('cb');
    const chargebeeEmail = `${chargebeeCustomer}@example.com`;
    const transaction = {
      id: unique('txn'),
      customer_id: chargebeeCustomer,
      amount: 999,
      currency_code: 'USD',
      status: 'failure',
      error_code: 'card_declined',
    };
    await post('chargebee', chargebeeEvent('payment_failed', { transaction, customer: { id: chargebeeCustomer, email: chargebeeEmail } }));
    const before = [await expiryOf(stripeEmail), await expiryOf(chargebeeEmail)];
    // Act
    await post(
      'stripe',
      stripeEvent('customer.source.expiring', { id: unique('card'), object: 'card', customer: stripeCustomer, exp_month: 6, exp_year: 2027 }),
    );
    await post(
      'chargebee',
      chargebeeEvent('card_expiry_reminder', {
        customer: { id: chargebeeCustomer, email: chargebeeEmail },
        card: { customer_id: chargebeeCustomer, expiry_month: 7, expiry_year: 2027, object: 'card' },
      }),
    );
    await post(
      'chargebee',
      chargebeeEvent('card_expiry_reminder', {
        customer: { id: unique('cb'), email: 'stranger.cb@example.com' },
        card: { expiry_month: 7, expiry_year: 2027 },
      }),
    );
    // Assess
    expect(before).toEqual([null, null]);
    expect(await expiryOf(stripeEmail)).toEqual({ month: 6, year: 2027 });
    expect(await expiryOf(chargebeeEmail)).toEqual({ month: 7, year: 2027 });
    const stranger = await call(`${stack.api_url}/customers/by-email/${encodeURIComponent('stranger.cb@example.com')}`, { key: tenant.key });
    expect(stranger.status).toBe(404);
  }, 30_000);
});
