import Stripe from 'stripe';
import { stripeWebhook } from '#webhooks/stripe';
import { type InboundWebhook, WebhookPayloadError } from '#webhooks/types';

const SECRET = 'whsec_test_5f0c1e9a7b2d4c6e8f0a1b2c3d4e5f60';
const NOW = new Date('2026-03-10T12:00:00Z');
const NOW_SECONDS = Math.floor(NOW.getTime() / 1000);
// No network: the webhooks helpers only compute HMACs.
const stripe = new Stripe('sk_test_offline');

const inbound = (payload: string, headers: Record<string, string>): InboundWebhook => ({
  rawBody: Buffer.from(payload, 'utf8'),
  headers,
  url: 'https://recovery.example.com/stripe/merchant_1',
});

const signed = (payload: string, options: { secret?: string; timestamp?: number } = {}): InboundWebhook =>
  inbound(payload, {
    'stripe-signature': stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? SECRET,
      timestamp: options.timestamp ?? NOW_SECONDS,
    }),
  });

/** payment_intent.payment_failed as docs.stripe.com shows it (trimmed to the fields read). */
const paymentIntentFailed = JSON.stringify({
  id: 'evt_3PfXh2LkdIwHu7ix0Kk1yXgL',
  object: 'event',
  api_version: '2024-06-20',
  created: 1773144000,
  type: 'payment_intent.payment_failed',
  data: {
    object: {
      id: 'pi_3PfXh2LkdIwHu7ix0xHbW2Kq',
      object: 'payment_intent',
      amount: 4999,
      currency: 'usd',
      customer: 'cus_QWxv3kqYz8N1rT',
      invoice: 'in_1PfXgzLkdIwHu7ixmQ0mLx0b',
      receipt_email: null,
      status: 'requires_payment_method',
      last_payment_error: {
        charge: 'ch_3PfXh2LkdIwHu7ix0u2sZJ4M',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        advice_code: 'try_again_later',
        network_decline_code: '51',
        doc_url: 'https://stripe.com/docs/error-codes/card-declined',
        message: 'Your card has insufficient funds.',
        type: 'card_error',
        payment_method: {
          id: 'pm_1PfXgyLkdIwHu7ixBNQ0J8Xa',
          object: 'payment_method',
          billing_details: { email: 'jenny.rosen@example.com', name: 'Jenny Rosen' },
          card: { brand: 'visa', exp_month: 8, exp_year: 2027, last4: '9995' },
          type: 'card',
        },
      },
    },
  },
});

describe('stripe webhook', () => {
  it('accepts a delivery when the SDK signed it with the endpoint secret', async () => {
    // Prepare
    const request = signed(paymentIntentFailed);
    // Act
    const verification = await stripeWebhook.verify(request, { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
    expect(stripe.webhooks.constructEvent(paymentIntentFailed, request.headers['stripe-signature'] ?? '', SECRET, 300, undefined, NOW_SECONDS).id).toBe(
      'evt_3PfXh2LkdIwHu7ix0Kk1yXgL',
    );
  });

  it('accepts a delivery when any one of several v1 signatures matches during secret rotation', async () => {
    // Prepare
    const goodSignature = (signed(paymentIntentFailed).headers['stripe-signature'] ?? '').split('v1=')[1];
    const header = `t=${NOW_SECONDS},v1=${'f'.repeat(64)},v1=${goodSignature}`;
    // Act
    const verification = await stripeWebhook.verify(inbound(paymentIntentFailed, { 'stripe-signature': header }), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('refuses a delivery when the body was changed after signing', async () => {
    // Prepare
    const request = signed(paymentIntentFailed);
    const tampered = { ...request, rawBody: Buffer.from(paymentIntentFailed.replace('4999', '1'), 'utf8') };
    // Act
    const verification = await stripeWebhook.verify(tampered, { secret: SECRET }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it('refuses a delivery when it was signed with another secret', async () => {
    // Prepare
    const request = signed(paymentIntentFailed, { secret: 'whsec_someone_else' });
    // Act
    const verification = await stripeWebhook.verify(request, { secret: SECRET }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it('refuses a delivery when its signed timestamp is older than the tolerance', async () => {
    // Prepare
    const request = signed(paymentIntentFailed, { timestamp: NOW_SECONDS - 301 });
    // Act
    const verification = await stripeWebhook.verify(request, { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: expect.stringContaining('timestamp') });
  });

  it('refuses a delivery when its signed timestamp lies beyond the tolerance in the future', async () => {
    // Prepare
    const request = signed(paymentIntentFailed, { timestamp: NOW_SECONDS + 301 });
    // Act
    const verification = await stripeWebhook.verify(request, { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: expect.stringContaining('timestamp') });
  });

  it('refuses a delivery when the Stripe-Signature header is missing', async () => {
    // Act
    const verification = await stripeWebhook.verify(inbound(paymentIntentFailed, {}), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing Stripe-Signature header' });
  });

  it('refuses without throwing when the header is garbage, truncated or oversized', async () => {
    // Prepare
    const headers = ['garbage', 't=,v1=', `t=${NOW_SECONDS},v1=abc`, `t=${NOW_SECONDS},v1=${'a'.repeat(10_000)}`, `v1=${'a'.repeat(64)}`];
    // Act
    const verifications = await Promise.all(
      headers.map((header) => stripeWebhook.verify(inbound(paymentIntentFailed, { 'stripe-signature': header }), { secret: SECRET }, NOW)),
    );
    // Assess
    expect(verifications.map((verification) => verification.ok)).toEqual([false, false, false, false, false]);
    expect(verifications.map((verification) => ('reason' in verification ? verification.reason : '')).join(' ')).not.toContain(SECRET);
  });

  it('maps the event to payment_failed with decline, network and advice codes when a payment intent fails', () => {
    // Act
    const events = stripeWebhook.normalise(signed(paymentIntentFailed));
    // Assess
    expect(events).toEqual([
      {
        psp: 'stripe',
        providerEventId: 'evt_3PfXh2LkdIwHu7ix0Kk1yXgL',
        type: 'payment_failed',
        occurredAt: '2026-03-10T12:00:00.000Z',
        payment: {
          providerPaymentId: 'pi_3PfXh2LkdIwHu7ix0xHbW2Kq',
          providerChargeId: 'ch_3PfXh2LkdIwHu7ix0u2sZJ4M',
          amount: 4999,
          currency: 'usd',
          declineCode: 'insufficient_funds',
          networkCode: '51',
          adviceCode: 'try_again_later',
          network: 'visa',
          invoiceId: 'in_1PfXgzLkdIwHu7ixmQ0mLx0b',
        },
        customer: { providerCustomerId: 'cus_QWxv3kqYz8N1rT', email: 'jenny.rosen@example.com', name: 'Jenny Rosen' },
        cardExpiry: { month: 8, year: 2027 },
      },
    ]);
  });

  it("reads the card's expiry from a failed charge and from a payment method event, and clears it for a method without a card", () => {
    // Prepare
    const event = (type: string, object: Record<string, unknown>) =>
      signed(JSON.stringify({ id: `evt_${type}`, object: 'event', created: 1773144000, type, data: { object } }));
    const charge = {
      id: 'ch_exp',
      object: 'charge',
      amount: 1000,
      currency: 'usd',
      customer: 'cus_exp',
      payment_method_details: { type: 'card', card: { brand: 'visa', exp_month: 3, exp_year: 2028 } },
    };
    // Act
    const [failed] = stripeWebhook.normalise(event('charge.failed', charge));
    const [updated] = stripeWebhook.normalise(
      event('payment_method.automatically_updated', {
        id: 'pm_1',
        object: 'payment_method',
        customer: 'cus_exp',
        type: 'card',
        card: { exp_month: '12', exp_year: 2031 },
      }),
    );
    const [sepa] = stripeWebhook.normalise(event('payment_method.attached', { id: 'pm_2', object: 'payment_method', customer: 'cus_exp', type: 'sepa_debit' }));
    const [broken] = stripeWebhook.normalise(event('charge.failed', { ...charge, payment_method_details: { card: { exp_month: 13, exp_year: 2028 } } }));
    // Assess
    expect(failed?.cardExpiry).toEqual({ month: 3, year: 2028 });
    expect(updated).toMatchObject({ type: 'payment_method_updated', cardExpiry: { month: 12, year: 2031 } });
    expect(sepa).toMatchObject({ type: 'payment_method_updated', cardExpiry: null });
    expect(broken?.cardExpiry).toBeUndefined();
  });

  it('normalises invoice.upcoming into an upcoming charge due at next_payment_attempt, and ignores invoices sent for manual payment', () => {
    // Prepare
    const upcoming = (invoice: Record<string, unknown>) =>
      signed(
        JSON.stringify({
          id: 'evt_upcoming',
          object: 'event',
          created: 1773144000,
          type: 'invoice.upcoming',
          data: {
            object: {
              object: 'invoice',
              amount_due: 2900,
              currency: 'EUR',
              customer: 'cus_up',
              customer_email: 'up@example.com',
              subscription: 'sub_up',
              next_payment_attempt: 1773748800,
              period_end: 1773700000,
              ...invoice,
            },
          },
        }),
      );
    // Act
    const [charge] = stripeWebhook.normalise(upcoming({}));
    const [periodEnd] = stripeWebhook.normalise(upcoming({ next_payment_attempt: null }));
    const manual = stripeWebhook.normalise(upcoming({ collection_method: 'send_invoice' }));
    // Assess
    expect(charge).toEqual({
      psp: 'stripe',
      providerEventId: 'evt_upcoming',
      type: 'upcoming_charge',
      occurredAt: '2026-03-10T12:00:00.000Z',
      dueAt: '2026-03-17T12:00:00.000Z',
      payment: { amount: 2900, currency: 'eur', subscriptionId: 'sub_up' },
      customer: { providerCustomerId: 'cus_up', email: 'up@example.com' },
    });
    expect(periodEnd?.dueAt).toBe(new Date(1773700000 * 1000).toISOString());
    expect(manual).toEqual([]);
  });

  it("normalises customer.source.expiring into the card's expiry for its customer, and nothing for a source without one", () => {
    // Prepare
    const expiring = (source: Record<string, unknown>) =>
      signed(JSON.stringify({ id: 'evt_expiring', object: 'event', created: 1773144000, type: 'customer.source.expiring', data: { object: source } }));
    // Act
    const [card] = stripeWebhook.normalise(expiring({ id: 'card_1', object: 'card', customer: 'cus_1', exp_month: 4, exp_year: 2026 }));
    const none = stripeWebhook.normalise(expiring({ id: 'src_1', object: 'source', customer: 'cus_1' }));
    // Assess
    expect(card).toEqual({
      psp: 'stripe',
      providerEventId: 'evt_expiring',
      type: 'card_expiry',
      occurredAt: '2026-03-10T12:00:00.000Z',
      customer: { providerCustomerId: 'cus_1' },
      cardExpiry: { month: 4, year: 2026 },
    });
    expect(none).toEqual([]);
  });

  it("reads the outcome's network codes when a charge fails", () => {
    // Prepare
    const payload = JSON.stringify({
      id: 'evt_1Charge',
      object: 'event',
      created: 1773144000,
      type: 'charge.failed',
      data: {
        object: {
          id: 'ch_3PfXh2LkdIwHu7ix0u2sZJ4M',
          object: 'charge',
          amount: 120000,
          currency: 'JPY',
          customer: 'cus_QWxv3kqYz8N1rT',
          billing_details: { email: null, name: null },
          receipt_email: 'kenji@example.jp',
          failure_code: 'card_declined',
          outcome: { type: 'issuer_declined', reason: 'do_not_honor', network_decline_code: '05', network_advice_code: '03', advice_code: 'do_not_try_again' },
          payment_method_details: { type: 'card', card: { brand: 'mastercard', last4: '4444' } },
        },
      },
    });
    // Act
    const [event] = stripeWebhook.normalise(signed(payload));
    // Assess
    expect(event).toMatchObject({
      type: 'payment_failed',
      payment: {
        providerPaymentId: 'ch_3PfXh2LkdIwHu7ix0u2sZJ4M',
        amount: 120000,
        currency: 'jpy',
        declineCode: 'do_not_honor',
        networkCode: '05',
        adviceCode: '03',
        network: 'mastercard',
      },
      customer: { providerCustomerId: 'cus_QWxv3kqYz8N1rT', email: 'kenji@example.jp' },
    });
  });

  it('takes the subscription id from parent.subscription_details when an invoice payment fails on a 2025+ API version', () => {
    // Prepare
    const payload = JSON.stringify({
      id: 'evt_1Invoice',
      object: 'event',
      created: 1773144000,
      type: 'invoice.payment_failed',
      data: {
        object: {
          id: 'in_1PfXgzLkdIwHu7ixmQ0mLx0b',
          object: 'invoice',
          amount_due: 2500,
          amount_paid: 0,
          currency: 'eur',
          customer: 'cus_QWxv3kqYz8N1rT',
          customer_email: 'jenny.rosen@example.com',
          customer_name: 'Jenny Rosen',
          attempt_count: 1,
          parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1PfXgxLkdIwHu7ixHj2KcS1o' } },
        },
      },
    });
    // Act
    const [event] = stripeWebhook.normalise(signed(payload));
    // Assess
    expect(event).toEqual({
      psp: 'stripe',
      providerEventId: 'evt_1Invoice',
      type: 'payment_failed',
      occurredAt: '2026-03-10T12:00:00.000Z',
      payment: { amount: 2500, currency: 'eur', invoiceId: 'in_1PfXgzLkdIwHu7ixmQ0mLx0b', subscriptionId: 'sub_1PfXgxLkdIwHu7ixHj2KcS1o' },
      customer: { providerCustomerId: 'cus_QWxv3kqYz8N1rT', email: 'jenny.rosen@example.com', name: 'Jenny Rosen' },
      // It names no payment (basil): its PaymentIntent is fetched by invoice id (see the basil tests below).
      fetch: { resource: 'invoice_payment', id: 'in_1PfXgzLkdIwHu7ixmQ0mLx0b' },
    });
  });

  it('maps the event to payment_succeeded with the amount paid when an invoice is paid', () => {
    // Prepare
    const payload = JSON.stringify({
      id: 'evt_1Paid',
      object: 'event',
      created: 1773144000,
      type: 'invoice.paid',
      data: { object: { id: 'in_1', object: 'invoice', amount_due: 2500, amount_paid: 2500, currency: 'eur', customer: 'cus_1', subscription: 'sub_1' } },
    });
    // Act
    const [event] = stripeWebhook.normalise(signed(payload));
    // Assess
    expect(event).toMatchObject({ type: 'payment_succeeded', payment: { amount: 2500, currency: 'eur', invoiceId: 'in_1', subscriptionId: 'sub_1' } });
  });

  it('normalises customer.updated only when the default payment method changed', () => {
    // Prepare
    const update = (previous: object): string =>
      JSON.stringify({
        id: 'evt_cu',
        created: 1773144000,
        type: 'customer.updated',
        data: { object: { id: 'cus_1', email: 'a@example.com' }, previous_attributes: previous },
      });
    // Act
    const changed = stripeWebhook.normalise(signed(update({ invoice_settings: { default_payment_method: 'pm_old' } })));
    const renamed = stripeWebhook.normalise(signed(update({ name: 'Old Name' })));
    // Assess
    expect(changed).toEqual([
      {
        psp: 'stripe',
        providerEventId: 'evt_cu',
        type: 'payment_method_updated',
        occurredAt: '2026-03-10T12:00:00.000Z',
        customer: { providerCustomerId: 'cus_1', email: 'a@example.com' },
      },
    ]);
    expect(renamed).toEqual([]);
  });

  it('returns no events when the event type is one the service does not use', () => {
    // Prepare
    const payload = JSON.stringify({ id: 'evt_1Product', object: 'event', created: 1773144000, type: 'product.created', data: { object: { id: 'prod_1' } } });
    // Act
    const events = stripeWebhook.normalise(signed(payload));
    // Assess
    expect(events).toEqual([]);
  });

  it('throws WebhookPayloadError when a verified body is not a Stripe event', () => {
    // Prepare
    const notAnEvent = signed(JSON.stringify({ hello: 'world' }));
    const notJson = signed('not json');
    // Act
    const readEvent = (): unknown => stripeWebhook.normalise(notAnEvent);
    const readJson = (): unknown => stripeWebhook.normalise(notJson);
    // Assess
    expect(readEvent).toThrow(WebhookPayloadError);
    expect(readJson).toThrow(WebhookPayloadError);
  });
});

describe('stripe events of one failed charge', () => {
  // One failed renewal as Stripe sends it (API 2024-06-20): the invoice, its PaymentIntent and the
  // PaymentIntent's charge each get an event of their own, with their own event ids.
  const failedInvoice = {
    id: 'evt_1PfXh3LkdIwHu7ixInvFail',
    object: 'event',
    api_version: '2024-06-20',
    created: 1773144002,
    type: 'invoice.payment_failed',
    data: {
      object: {
        id: 'in_1PfXgzLkdIwHu7ixmQ0mLx0b',
        object: 'invoice',
        amount_due: 4999,
        amount_paid: 0,
        attempt_count: 1,
        billing_reason: 'subscription_cycle',
        charge: 'ch_3PfXh2LkdIwHu7ix0u2sZJ4M',
        currency: 'usd',
        customer: 'cus_QWxv3kqYz8N1rT',
        customer_email: 'jenny.rosen@example.com',
        customer_name: 'Jenny Rosen',
        next_payment_attempt: 1773403200,
        paid: false,
        payment_intent: 'pi_3PfXh2LkdIwHu7ix0xHbW2Kq',
        status: 'open',
        subscription: 'sub_1PfXgxLkdIwHu7ixHj2KcS1o',
      },
    },
  };
  const failedIntent = JSON.parse(paymentIntentFailed) as typeof failedInvoice;
  const failedCharge = {
    id: 'evt_3PfXh2LkdIwHu7ix0ChgFail',
    object: 'event',
    api_version: '2024-06-20',
    created: 1773144001,
    type: 'charge.failed',
    data: {
      object: {
        id: 'ch_3PfXh2LkdIwHu7ix0u2sZJ4M',
        object: 'charge',
        amount: 4999,
        amount_refunded: 0,
        billing_details: { email: 'jenny.rosen@example.com', name: 'Jenny Rosen' },
        currency: 'usd',
        customer: 'cus_QWxv3kqYz8N1rT',
        failure_code: 'card_declined',
        failure_message: 'Your card has insufficient funds.',
        invoice: 'in_1PfXgzLkdIwHu7ixmQ0mLx0b',
        outcome: { network_status: 'declined_by_network', reason: 'insufficient_funds', network_decline_code: '51', type: 'issuer_declined' },
        paid: false,
        payment_intent: 'pi_3PfXh2LkdIwHu7ix0xHbW2Kq',
        payment_method_details: { type: 'card', card: { brand: 'visa', last4: '9995' } },
        status: 'failed',
      },
    },
  };
  const normalisedAll = (...events: object[]) => events.flatMap((event) => stripeWebhook.normalise(signed(JSON.stringify(event))));

  it('names the PaymentIntent as the payment of the invoice, payment intent and charge events of one failure', () => {
    // Act
    const events = normalisedAll(failedInvoice, failedIntent, failedCharge);
    // Assess
    expect(events.map((event) => [event.providerEventId, event.type])).toEqual([
      ['evt_1PfXh3LkdIwHu7ixInvFail', 'payment_failed'],
      ['evt_3PfXh2LkdIwHu7ix0Kk1yXgL', 'payment_failed'],
      ['evt_3PfXh2LkdIwHu7ix0ChgFail', 'payment_failed'],
    ]);
    expect(new Set(events.map((event) => event.payment?.providerPaymentId))).toEqual(new Set(['pi_3PfXh2LkdIwHu7ix0xHbW2Kq']));
    expect(events.map((event) => event.payment?.invoiceId)).toEqual([
      'in_1PfXgzLkdIwHu7ixmQ0mLx0b',
      'in_1PfXgzLkdIwHu7ixmQ0mLx0b',
      'in_1PfXgzLkdIwHu7ixmQ0mLx0b',
    ]);
  });

  it('names the charge (ch_) beside the PaymentIntent in the invoice, payment intent (latest_charge) and charge events of one failure', () => {
    // Prepare: the intent names its charge as latest_charge (and in last_payment_error).
    const intent = { ...failedIntent, data: { object: { ...failedIntent.data.object, latest_charge: 'ch_3PfXh2LkdIwHu7ix0u2sZJ4M' } } };
    // Act
    const events = normalisedAll(failedInvoice, intent, failedCharge);
    // Assess
    expect(events.map((event) => [event.payment?.providerPaymentId, event.payment?.providerChargeId])).toEqual([
      ['pi_3PfXh2LkdIwHu7ix0xHbW2Kq', 'ch_3PfXh2LkdIwHu7ix0u2sZJ4M'],
      ['pi_3PfXh2LkdIwHu7ix0xHbW2Kq', 'ch_3PfXh2LkdIwHu7ix0u2sZJ4M'],
      ['pi_3PfXh2LkdIwHu7ix0xHbW2Kq', 'ch_3PfXh2LkdIwHu7ix0u2sZJ4M'],
    ]);
  });

  it('names the charge as the payment of the invoice and charge events when the charge has no PaymentIntent', () => {
    // Prepare
    const invoice = { ...failedInvoice, data: { object: { ...failedInvoice.data.object, payment_intent: null } } };
    const charge = { ...failedCharge, data: { object: { ...failedCharge.data.object, payment_intent: null } } };
    // Act
    const events = normalisedAll(invoice, charge);
    // Assess
    expect(events.map((event) => event.payment?.providerPaymentId)).toEqual(['ch_3PfXh2LkdIwHu7ix0u2sZJ4M', 'ch_3PfXh2LkdIwHu7ix0u2sZJ4M']);
    expect(events.map((event) => event.payment?.providerChargeId)).toEqual([undefined, undefined]);
  });

  it("names the PaymentIntent when the charge's payment_intent arrives expanded", () => {
    // Prepare
    const charge = {
      ...failedCharge,
      data: { object: { ...failedCharge.data.object, payment_intent: { id: 'pi_3PfXh2LkdIwHu7ix0xHbW2Kq', object: 'payment_intent' } } },
    };
    // Act
    const [event] = normalisedAll(charge);
    // Assess
    expect(event?.payment?.providerPaymentId).toBe('pi_3PfXh2LkdIwHu7ix0xHbW2Kq');
  });

  it('names the same payment when that charge is refunded or a later charge of its PaymentIntent succeeds', () => {
    // Prepare
    const refunded = {
      ...failedCharge,
      id: 'evt_refund',
      type: 'charge.refunded',
      data: { object: { ...failedCharge.data.object, status: 'succeeded', amount_refunded: 4999 } },
    };
    const succeeded = {
      ...failedCharge,
      id: 'evt_success',
      type: 'charge.succeeded',
      data: { object: { ...failedCharge.data.object, id: 'ch_3PfXh2LkdIwHu7ix1Retry', status: 'succeeded' } },
    };
    // Act
    const events = normalisedAll(refunded, succeeded);
    // Assess
    expect(events.map((event) => [event.type, event.payment?.providerPaymentId])).toEqual([
      ['charge_refunded', 'pi_3PfXh2LkdIwHu7ix0xHbW2Kq'],
      ['payment_succeeded', 'pi_3PfXh2LkdIwHu7ix0xHbW2Kq'],
    ]);
  });
});

describe('stripe basil (2025-03-31+) invoice events', () => {
  // https://docs.stripe.com/changelog/basil/2025-03-31/add-support-for-multiple-partial-payments-on-invoices:
  // the invoice has no payment_intent or charge, the PaymentIntent and charge no invoice.
  const basilInvoice = {
    id: 'evt_1QbAsiLkdIwHu7ixInvFail',
    object: 'event',
    api_version: '2025-03-31.basil',
    created: 1773144002,
    type: 'invoice.payment_failed',
    data: {
      object: {
        id: 'in_1QbAsgLkdIwHu7ixBasil001',
        object: 'invoice',
        amount_due: 4999,
        amount_paid: 0,
        amount_remaining: 4999,
        attempt_count: 1,
        billing_reason: 'subscription_cycle',
        currency: 'usd',
        customer: 'cus_QbAsil0001',
        customer_email: 'jenny.rosen@example.com',
        customer_name: 'Jenny Rosen',
        next_payment_attempt: 1773403200,
        parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1QbAsfLkdIwHu7ixBasil001' } },
        status: 'open',
      },
    },
  };
  const withInvoice = (fields: Record<string, unknown>, type = basilInvoice.type) => ({
    ...basilInvoice,
    type,
    data: { object: { ...basilInvoice.data.object, ...fields } },
  });
  const invoicePayment = (paymentIntent: unknown, fields: Record<string, unknown> = {}) => ({
    id: 'inpay_1QbAsiLkdIwHu7ix0001',
    object: 'invoice_payment',
    amount_paid: null,
    amount_requested: 4999,
    currency: 'usd',
    invoice: 'in_1QbAsgLkdIwHu7ixBasil001',
    is_default: true,
    payment: { type: 'payment_intent', payment_intent: paymentIntent },
    status: 'open',
    ...fields,
  });
  const normaliseOne = (event: object) => {
    const events = stripeWebhook.normalise(signed(JSON.stringify(event)));
    expect(events).toHaveLength(1);
    return events[0];
  };

  it('marks a failed invoice whose payload lists no payments for a fetch of its invoice payment, keeping what the invoice gives', () => {
    // Act
    const event = normaliseOne(basilInvoice);
    // Assess
    expect(event).toEqual({
      psp: 'stripe',
      providerEventId: 'evt_1QbAsiLkdIwHu7ixInvFail',
      type: 'payment_failed',
      occurredAt: '2026-03-10T12:00:02.000Z',
      payment: { amount: 4999, currency: 'usd', invoiceId: 'in_1QbAsgLkdIwHu7ixBasil001', subscriptionId: 'sub_1QbAsfLkdIwHu7ixBasil001' },
      customer: { providerCustomerId: 'cus_QbAsil0001', email: 'jenny.rosen@example.com', name: 'Jenny Rosen' },
      fetch: { resource: 'invoice_payment', id: 'in_1QbAsgLkdIwHu7ixBasil001' },
    });
  });

  it('names the PaymentIntent of the default invoice payment, with no fetch, when the payload includes payments', () => {
    // Prepare
    const payments = {
      object: 'list',
      has_more: false,
      url: '/v1/invoice_payments',
      data: [
        invoicePayment('pi_3QbAsiLkdIwHu7ix0Other', { id: 'inpay_other', is_default: false, status: 'canceled' }),
        invoicePayment('pi_3QbAsiLkdIwHu7ix0Basil'),
      ],
    };
    // Act
    const event = normaliseOne(withInvoice({ payments }));
    // Assess
    expect(event?.payment?.providerPaymentId).toBe('pi_3QbAsiLkdIwHu7ix0Basil');
    expect(event?.payment?.invoiceId).toBe('in_1QbAsgLkdIwHu7ixBasil001');
    expect(event?.fetch).toBeUndefined();
  });

  it('names the PaymentIntent when the listed payment arrives expanded, and the charge of a payment without one', () => {
    // Prepare
    const expanded = withInvoice({ payments: { object: 'list', data: [invoicePayment({ id: 'pi_3QbAsiLkdIwHu7ix0Basil', object: 'payment_intent' })] } });
    const chargeOnly = withInvoice({
      payments: { object: 'list', data: [invoicePayment(undefined, { payment: { type: 'charge', charge: 'ch_3QbAsiLkdIwHu7ix0Basil' } })] },
    });
    // Act
    const [fromExpanded, fromCharge] = [normaliseOne(expanded), normaliseOne(chargeOnly)];
    // Assess
    expect([fromExpanded?.payment?.providerPaymentId, fromExpanded?.fetch]).toEqual(['pi_3QbAsiLkdIwHu7ix0Basil', undefined]);
    expect([fromCharge?.payment?.providerPaymentId, fromCharge?.fetch]).toEqual(['ch_3QbAsiLkdIwHu7ix0Basil', undefined]);
  });

  it('still marks the fetch when the included payments name neither a PaymentIntent nor a charge', () => {
    // Prepare
    const event = withInvoice({ payments: { object: 'list', data: [] } });
    // Act
    const normalised = normaliseOne(event);
    // Assess
    expect(normalised?.payment?.providerPaymentId).toBeUndefined();
    expect(normalised?.fetch).toEqual({ resource: 'invoice_payment', id: 'in_1QbAsgLkdIwHu7ixBasil001' });
  });

  it('does not fetch for a paid basil invoice: ingest matches the success by invoice id', () => {
    // Prepare
    const paid = withInvoice({ amount_paid: 4999, amount_remaining: 0, status: 'paid' }, 'invoice.paid');
    // Act
    const event = normaliseOne(paid);
    // Assess
    expect(event).toMatchObject({ type: 'payment_succeeded', payment: { amount: 4999, currency: 'usd', invoiceId: 'in_1QbAsgLkdIwHu7ixBasil001' } });
    expect(event?.fetch).toBeUndefined();
    expect(event?.payment?.providerPaymentId).toBeUndefined();
  });

  it('gives the PaymentIntent event its invoice id when the payload names one (before basil), and none when it does not (basil)', () => {
    // Prepare
    const preBasil = JSON.parse(paymentIntentFailed) as { data: { object: Record<string, unknown> } };
    const { invoice: _removed, ...basilIntent } = preBasil.data.object;
    const basil = { ...preBasil, id: 'evt_basil_intent', api_version: '2025-03-31.basil', data: { object: basilIntent } };
    // Act
    const [before, after] = [normaliseOne(preBasil), normaliseOne(basil)];
    // Assess
    expect([before?.payment?.providerPaymentId, before?.payment?.invoiceId, before?.fetch]).toEqual([
      'pi_3PfXh2LkdIwHu7ix0xHbW2Kq',
      'in_1PfXgzLkdIwHu7ixmQ0mLx0b',
      undefined,
    ]);
    expect([after?.payment?.providerPaymentId, after?.payment?.invoiceId, after?.fetch]).toEqual(['pi_3PfXh2LkdIwHu7ix0xHbW2Kq', undefined, undefined]);
  });
});
