import { createHash, createHmac } from 'node:crypto';
import Razorpay from 'razorpay';
import { razorpayWebhook } from '#webhooks/razorpay';
import { type InboundWebhook, WebhookPayloadError } from '#webhooks/types';

// Razorpay's SDK can only verify (Razorpay.validateWebhookSignature), so the tests sign the raw body
// with HMAC-SHA256 as Razorpay documents and ask both the SDK and our module.
const SECRET = 'rzp-webhook-s3cret-9f2c';
const NOW = new Date('2026-03-02T10:00:00Z');

// After Razorpay's payment.failed webhook sample (payload.payment.entity with error_* fields).
const PAYMENT_FAILED = {
  entity: 'event',
  account_id: 'acc_BFQ7uQEaa7j2z7',
  event: 'payment.failed',
  contains: ['payment'],
  payload: {
    payment: {
      entity: {
        id: 'pay_DESlfW9H8K9uqM',
        entity: 'payment',
        amount: 49900,
        currency: 'INR',
        status: 'failed',
        order_id: 'order_DESlLckIVRkHWj',
        invoice_id: 'inv_DESlTq3c5jKiUu',
        international: false,
        method: 'card',
        amount_refunded: 0,
        refund_status: null,
        captured: false,
        description: 'Monthly plan',
        card_id: 'card_DESlfW9H8K9uqN',
        card: {
          id: 'card_DESlfW9H8K9uqN',
          entity: 'card',
          name: 'Gaurav Kumar',
          last4: '1111',
          network: 'Visa',
          type: 'debit',
          issuer: 'HDFC',
          international: false,
          emi: false,
        },
        bank: null,
        wallet: null,
        vpa: null,
        email: 'gaurav.kumar@example.com',
        contact: '+919876543210',
        customer_id: 'cust_DESlUw4IHPmr0T',
        notes: [],
        fee: null,
        tax: null,
        error_code: 'BAD_REQUEST_ERROR',
        error_description: 'Payment failed due to insufficient balance in account.',
        error_source: 'bank',
        error_step: 'payment_authorization',
        error_reason: 'insufficient_funds',
        acquirer_data: { auth_code: null },
        created_at: 1567674599,
      },
    },
  },
  created_at: 1567674606,
};

const sign = (raw: string, secret = SECRET): string => createHmac('sha256', secret).update(raw).digest('hex');

const inbound = (raw: string, headers: Record<string, string>): InboundWebhook => ({
  rawBody: Buffer.from(raw),
  headers,
  url: 'https://hooks.example.com/razorpay/m_1',
});

describe('razorpay webhook', () => {
  it('accepts a delivery signed with the secret, as the SDK does', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    const signature = sign(raw);
    // Act
    const ours = await razorpayWebhook.verify(inbound(raw, { 'x-razorpay-signature': signature }), { secret: SECRET }, NOW);
    const sdk = Razorpay.validateWebhookSignature(raw, signature, SECRET);
    // Assess
    expect(ours).toEqual({ ok: true });
    expect(sdk).toBe(true);
  });

  it('refuses a tampered body, as the SDK does', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    const signature = sign(raw);
    const tampered = raw.replace('"amount":49900', '"amount":100');
    // Act
    const ours = await razorpayWebhook.verify(inbound(tampered, { 'x-razorpay-signature': signature }), { secret: SECRET }, NOW);
    const sdk = Razorpay.validateWebhookSignature(tampered, signature, SECRET);
    // Assess
    expect(ours).toEqual({ ok: false, reason: 'X-Razorpay-Signature does not match' });
    expect(sdk).toBe(false);
  });

  it('refuses a delivery when the merchant secret is different, as the SDK does', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    const signature = sign(raw);
    // Act
    const ours = await razorpayWebhook.verify(inbound(raw, { 'x-razorpay-signature': signature }), { secret: 'another-secret' }, NOW);
    const sdk = Razorpay.validateWebhookSignature(raw, signature, 'another-secret');
    // Assess
    expect(ours.ok).toBe(false);
    expect(sdk).toBe(false);
  });

  it('verifies the raw bytes as received when the JSON is not compactly serialised', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED, null, 2);
    // Act
    const verification = await razorpayWebhook.verify(inbound(raw, { 'x-razorpay-signature': sign(raw) }), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('refuses a delivery when the X-Razorpay-Signature header is missing', async () => {
    // Act
    const verification = await razorpayWebhook.verify(inbound(JSON.stringify(PAYMENT_FAILED), {}), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing X-Razorpay-Signature header' });
  });

  it.each([
    ['too short', 'short'],
    ['multi-byte text of the right length', 'ä'.repeat(64)],
    ['the signature of another body', sign('other body')],
  ])('refuses without throwing when the signature is %s', async (_label, signature) => {
    // Act
    const verification = await razorpayWebhook.verify(inbound(JSON.stringify(PAYMENT_FAILED), { 'x-razorpay-signature': signature }), { secret: SECRET }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
    expect(JSON.stringify(verification)).not.toContain(SECRET);
  });

  it('refuses every delivery when no secret is configured', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    // Act
    const verification = await razorpayWebhook.verify(inbound(raw, { 'x-razorpay-signature': sign(raw, '') }), { secret: '' }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'no razorpay secret configured' });
  });

  it('normalises payment.failed with paise, lowercase currency, customer and error_reason as the decline code', () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    // Act
    const events = razorpayWebhook.normalise(inbound(raw, { 'x-razorpay-event-id': 'FaX3VUbCjRWkUe' }));
    // Assess
    expect(events).toEqual([
      {
        psp: 'razorpay',
        providerEventId: createHash('sha256').update(raw).digest('hex'),
        type: 'payment_failed',
        occurredAt: '2019-09-05T09:10:06.000Z',
        payment: {
          providerPaymentId: 'pay_DESlfW9H8K9uqM',
          amount: 49900,
          currency: 'inr',
          declineCode: 'insufficient_funds',
          network: 'visa',
          invoiceId: 'inv_DESlTq3c5jKiUu',
        },
        customer: { email: 'gaurav.kumar@example.com', providerCustomerId: 'cust_DESlUw4IHPmr0T' },
      },
    ]);
  });

  it('keeps the signed-body digest as the event id when a replay carries a fresh, unsigned event-id header', () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    // Act
    const [first] = razorpayWebhook.normalise(inbound(raw, { 'x-razorpay-event-id': 'FaX3VUbCjRWkUe' }));
    const [replayed] = razorpayWebhook.normalise(inbound(raw, { 'x-razorpay-event-id': 'Forged00000001' }));
    // Assess
    expect(replayed?.providerEventId).toBe(first?.providerEventId);
  });

  it('normalises subscription.charged into a recovered payment with its subscription', () => {
    // Prepare
    const payment = {
      ...PAYMENT_FAILED.payload.payment.entity,
      id: 'pay_ok',
      status: 'captured',
      error_code: null,
      error_reason: null,
      error_description: null,
    };
    const body = {
      ...PAYMENT_FAILED,
      event: 'subscription.charged',
      contains: ['subscription', 'payment'],
      payload: { subscription: { entity: { id: 'sub_DEX6xcJ1HSW4CR', customer_id: 'cust_DESlUw4IHPmr0T', status: 'active' } }, payment: { entity: payment } },
    };
    // Act
    const [event] = razorpayWebhook.normalise(inbound(JSON.stringify(body), { 'x-razorpay-event-id': 'evt_ok' }));
    // Assess
    expect(event).toMatchObject({
      type: 'payment_succeeded',
      payment: { providerPaymentId: 'pay_ok', amount: 49900, currency: 'inr', subscriptionId: 'sub_DEX6xcJ1HSW4CR' },
    });
    expect(event?.payment?.declineCode).toBeUndefined();
  });

  it('normalises refund.processed into charge_refunded for the refunded payment', () => {
    // Prepare
    const body = {
      entity: 'event',
      event: 'refund.processed',
      contains: ['refund', 'payment'],
      payload: { refund: { entity: { id: 'rfnd_FP8QHiV938haTz', amount: 20000, currency: 'INR', payment_id: 'pay_DESlfW9H8K9uqM', status: 'processed' } } },
      created_at: 1567674606,
    };
    // Act
    const [event] = razorpayWebhook.normalise(inbound(JSON.stringify(body), {}));
    // Assess
    expect(event).toMatchObject({ type: 'charge_refunded', payment: { providerPaymentId: 'pay_DESlfW9H8K9uqM', amount: 20000, currency: 'inr' } });
  });

  it.each([['order.paid'], ['subscription.halted']])('ignores %s, an event the service does not use', (event) => {
    // Act and assess
    expect(razorpayWebhook.normalise(inbound(JSON.stringify({ ...PAYMENT_FAILED, event }), {}))).toEqual([]);
  });

  it.each([
    ['not JSON', 'payment.failed'],
    ['a payment.failed without its payment entity', JSON.stringify({ ...PAYMENT_FAILED, payload: {} })],
    [
      'a rupee amount with decimals',
      JSON.stringify({ ...PAYMENT_FAILED, payload: { payment: { entity: { ...PAYMENT_FAILED.payload.payment.entity, amount: 499.0001 } } } }),
    ],
  ])('throws WebhookPayloadError when the verified body is %s', (_label, raw) => {
    // Act and assess
    expect(() => razorpayWebhook.normalise(inbound(raw, {}))).toThrow(WebhookPayloadError);
  });
});

describe('razorpay events of one failed subscription charge', () => {
  // A failed renewal: payment.failed for the charge, then subscription.pending (Razorpay will retry)
  // and, when the retries run out, subscription.halted; the subscription events carry the
  // subscription (and may carry the payment too), and invoice.expired may follow.
  const subscription = {
    id: 'sub_DEX6xcJ1HSW4CR',
    entity: 'subscription',
    plan_id: 'plan_BvrFKjSxauOH7N',
    customer_id: 'cust_DESlUw4IHPmr0T',
    status: 'pending',
    paid_count: 3,
    total_count: 12,
    auth_attempts: 1,
  };
  const payment = PAYMENT_FAILED.payload.payment.entity;
  const event = (name: string, payload: object): string =>
    JSON.stringify({ entity: 'event', account_id: 'acc_BFQ7uQEaa7j2z7', event: name, contains: Object.keys(payload), payload, created_at: 1567674606 });

  it('records the failure once, for the payment of payment.failed, when subscription.pending, subscription.halted and invoice.expired follow', () => {
    // Prepare
    const deliveries = [
      event('payment.failed', { payment: { entity: payment }, subscription: { entity: subscription } }),
      event('subscription.pending', { subscription: { entity: subscription }, payment: { entity: payment } }),
      event('subscription.halted', { subscription: { entity: { ...subscription, status: 'halted', auth_attempts: 4 } } }),
      event('invoice.expired', {
        invoice: { entity: { id: 'inv_DESlTq3c5jKiUu', entity: 'invoice', status: 'expired', payment_id: payment.id, subscription_id: subscription.id } },
      }),
    ];
    // Act
    const events = deliveries.flatMap((raw) => razorpayWebhook.normalise(inbound(raw, {})));
    // Assess
    expect(events.map((normalised) => [normalised.type, normalised.payment?.providerPaymentId, normalised.payment?.subscriptionId])).toEqual([
      ['payment_failed', 'pay_DESlfW9H8K9uqM', 'sub_DEX6xcJ1HSW4CR'],
    ]);
  });
});
