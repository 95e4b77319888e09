import { createHmac } from 'node:crypto';
import { WebhooksHelper } from 'square';
import { squareWebhook } from '#webhooks/square';
import { type InboundWebhook, WebhookPayloadError } from '#webhooks/types';

// The square SDK verifies but cannot sign: deliveries are signed here per Square's documented scheme
// (base64 HMAC-SHA256 of notification URL + raw body, keyed by the signature key), and each
// verification test checks that the SDK's WebhooksHelper.verifySignature agrees with ours.
const SIGNATURE_KEY = 'Yk3mJ8xqP0vN2wR5tZ7aB9cD1eF4gH6i';
const URL = 'https://recovery.example.com/square/merchant_1';
const NOW = new Date('2026-03-10T12:00:00Z');

const sign = (body: string, key = SIGNATURE_KEY, url = URL): string =>
  createHmac('sha256', key)
    .update(url + body, 'utf8')
    .digest('base64');

const inbound = (body: string, headers: Record<string, string>, url = URL): InboundWebhook => ({ rawBody: Buffer.from(body, 'utf8'), headers, url });

const signed = (body: string): InboundWebhook => inbound(body, { 'x-square-hmacsha256-signature': sign(body) });

const sdkAccepts = (request: InboundWebhook, key = SIGNATURE_KEY): Promise<boolean> =>
  WebhooksHelper.verifySignature({
    requestBody: request.rawBody.toString('utf8'),
    signatureHeader: request.headers['x-square-hmacsha256-signature'] ?? '',
    signatureKey: key,
    notificationUrl: URL,
  });

/** payment.updated for a declined card, shaped like the Payments API Payment object in Square's docs. */
const paymentFailed = JSON.stringify({
  merchant_id: '6SSW7HV8K2ST5',
  type: 'payment.updated',
  event_id: '6a8f5f28-54a1-4eb0-a98a-3111513fd4fc',
  created_at: '2026-03-10T11:59:59.283Z',
  data: {
    type: 'payment',
    id: 'hYy9pRFVxpDsO1FB05SunFWUe9JZY',
    object: {
      payment: {
        id: 'hYy9pRFVxpDsO1FB05SunFWUe9JZY',
        created_at: '2026-03-10T11:59:57.000Z',
        updated_at: '2026-03-10T11:59:59.274Z',
        amount_money: { amount: 1999, currency: 'GBP' },
        status: 'FAILED',
        source_type: 'CARD',
        card_details: {
          status: 'FAILED',
          card: { card_brand: 'MASTERCARD', last_4: '0015', exp_month: 4, exp_year: 2027 },
          entry_method: 'ON_FILE',
          errors: [{ code: 'INSUFFICIENT_FUNDS', detail: "Authorization error: 'INSUFFICIENT_FUNDS'", category: 'PAYMENT_METHOD_ERROR' }],
        },
        location_id: 'L88917AVBK2S5',
        order_id: 'pRsjRTgFWATl7so6DxdKBJa7ssbZY',
        customer_id: 'JDKYHBWT1D4F8MFH63DBMEN8Y4',
        buyer_email_address: 'amelia.earhart@example.com',
        version: 2,
      },
    },
  },
});

describe('square webhook', () => {
  it('accepts a delivery when the signature covers the notification URL and body, as the SDK also does', async () => {
    // Prepare
    const request = signed(paymentFailed);
    // Act
    const verification = await squareWebhook.verify(request, { secret: SIGNATURE_KEY }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
    await expect(sdkAccepts(request)).resolves.toBe(true);
  });

  it('refuses a delivery when the body was changed after signing, as the SDK also does', async () => {
    // Prepare
    const tampered = inbound(paymentFailed.replace('1999', '19'), { 'x-square-hmacsha256-signature': sign(paymentFailed) });
    // Act
    const verification = await squareWebhook.verify(tampered, { secret: SIGNATURE_KEY }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
    await expect(sdkAccepts(tampered)).resolves.toBe(false);
  });

  it('refuses a delivery when it was signed with another signature key, as the SDK also does', async () => {
    // Prepare
    const request = inbound(paymentFailed, { 'x-square-hmacsha256-signature': sign(paymentFailed, 'another-key') });
    // Act
    const verification = await squareWebhook.verify(request, { secret: SIGNATURE_KEY }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
    await expect(sdkAccepts(request)).resolves.toBe(false);
  });

  it('refuses a delivery when it was signed for another notification URL', async () => {
    // Prepare
    const request = inbound(paymentFailed, {
      'x-square-hmacsha256-signature': sign(paymentFailed, SIGNATURE_KEY, 'https://recovery.example.com/square/merchant_2'),
    });
    // Act
    const verification = await squareWebhook.verify(request, { secret: SIGNATURE_KEY }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'x-square-hmacsha256-signature does not match the URL and body' });
  });

  it('refuses a delivery when the signature header is missing', async () => {
    // Act
    const verification = await squareWebhook.verify(inbound(paymentFailed, {}), { secret: SIGNATURE_KEY }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing x-square-hmacsha256-signature header' });
  });

  it('refuses without throwing when the signature is truncated or not base64', async () => {
    // Prepare
    const headers = [sign(paymentFailed).slice(0, 12), '!!!!', 'A'.repeat(5000)];
    // Act
    const verifications = await Promise.all(
      headers.map((header) => squareWebhook.verify(inbound(paymentFailed, { 'x-square-hmacsha256-signature': header }), { secret: SIGNATURE_KEY }, NOW)),
    );
    // Assess
    expect(verifications.every((verification) => !verification.ok)).toBe(true);
  });

  it("maps the event to payment_failed under the payment's order with the card error code when payment.updated reports FAILED", () => {
    // Act
    const events = squareWebhook.normalise(signed(paymentFailed));
    // Assess
    expect(events).toEqual([
      {
        psp: 'square',
        providerEventId: '6a8f5f28-54a1-4eb0-a98a-3111513fd4fc',
        type: 'payment_failed',
        occurredAt: '2026-03-10T11:59:59.283Z',
        payment: {
          providerPaymentId: 'pRsjRTgFWATl7so6DxdKBJa7ssbZY',
          amount: 1999,
          currency: 'gbp',
          declineCode: 'INSUFFICIENT_FUNDS',
          network: 'mastercard',
        },
        customer: { providerCustomerId: 'JDKYHBWT1D4F8MFH63DBMEN8Y4', email: 'amelia.earhart@example.com' },
      },
    ]);
  });

  it('maps the event to payment_failed with the invoice, subscription and recipient when a scheduled invoice charge fails', () => {
    // Prepare
    const body = JSON.stringify({
      merchant_id: '6SSW7HV8K2ST5',
      type: 'invoice.scheduled_charge_failed',
      event_id: 'a5b1e4b2-5e9f-4d3e-9c7d-0f5c2d0b8e11',
      created_at: '2026-03-10T09:00:02Z',
      data: {
        type: 'invoice',
        id: 'inv:0-ChA4-3sU9GPd-uOC3HgvFjMWEL4N',
        object: {
          invoice: {
            id: 'inv:0-ChA4-3sU9GPd-uOC3HgvFjMWEL4N',
            version: 3,
            location_id: 'L88917AVBK2S5',
            subscription_id: '9ba40961-995a-4a3d-8c53-048c40cafc13',
            status: 'UNPAID',
            primary_recipient: {
              customer_id: 'JDKYHBWT1D4F8MFH63DBMEN8Y4',
              given_name: 'Amelia',
              family_name: 'Earhart',
              email_address: 'amelia.earhart@example.com',
            },
            payment_requests: [
              { uid: '2da7964f-f3d2-4f43-81e8-5aa220bf3355', request_type: 'BALANCE', computed_amount_money: { amount: 1000, currency: 'JPY' } },
            ],
          },
        },
      },
    });
    // Act
    const [event] = squareWebhook.normalise(signed(body));
    // Assess
    expect(event).toEqual({
      psp: 'square',
      providerEventId: 'a5b1e4b2-5e9f-4d3e-9c7d-0f5c2d0b8e11',
      type: 'payment_failed',
      occurredAt: '2026-03-10T09:00:02Z',
      payment: { amount: 1000, currency: 'jpy', invoiceId: 'inv:0-ChA4-3sU9GPd-uOC3HgvFjMWEL4N', subscriptionId: '9ba40961-995a-4a3d-8c53-048c40cafc13' },
      customer: { providerCustomerId: 'JDKYHBWT1D4F8MFH63DBMEN8Y4', email: 'amelia.earhart@example.com', name: 'Amelia Earhart' },
    });
  });

  it('maps the event to payment_succeeded without a decline code when payment.updated reports COMPLETED', () => {
    // Prepare
    const body = paymentFailed.replace(/"FAILED"/g, '"COMPLETED"').replace(/"errors":\[[^\]]*\]/, '"errors":[]');
    // Act
    const [event] = squareWebhook.normalise(signed(body));
    // Assess
    expect(event).toMatchObject({ type: 'payment_succeeded', payment: { providerPaymentId: 'pRsjRTgFWATl7so6DxdKBJa7ssbZY', amount: 1999, currency: 'gbp' } });
    expect(event?.payment?.declineCode).toBeUndefined();
  });

  it('returns no events when the event type is one the service does not use', () => {
    // Prepare
    const body = JSON.stringify({
      merchant_id: 'M',
      type: 'inventory.count.updated',
      event_id: 'e-1',
      created_at: '2026-03-10T09:00:02Z',
      data: { type: 'inventory_counts', id: 'x', object: {} },
    });
    // Act
    const events = squareWebhook.normalise(signed(body));
    // Assess
    expect(events).toEqual([]);
  });

  it('throws WebhookPayloadError when a verified payment event carries no payment object', () => {
    // Prepare
    const request = signed(JSON.stringify({ merchant_id: 'M', type: 'payment.updated', event_id: 'e-1', data: { type: 'payment', id: 'p', object: {} } }));
    // Act
    const read = (): unknown => squareWebhook.normalise(request);
    // Assess
    expect(read).toThrow(WebhookPayloadError);
  });
});

describe('square events of one failed invoice charge', () => {
  // One failed automatic invoice charge as the two webhook subscriptions see it: the payment
  // subscription gets payment.created and payment.updated (FAILED), the invoice subscription
  // invoice.scheduled_charge_failed. Invoice and payment share the invoice's order.
  const ORDER_ID = 'CAISENgvlJ6jLWAzERDzjyHVybY';
  const payment = {
    id: 'bP9mAsEMYPUGjjGNaNO5ZDVyLhSZY',
    created_at: '2026-03-10T09:00:01.000Z',
    amount_money: { amount: 1000, currency: 'JPY' },
    status: 'FAILED',
    source_type: 'CARD',
    card_details: {
      status: 'FAILED',
      card: { card_brand: 'VISA', last_4: '1111' },
      entry_method: 'ON_FILE',
      errors: [{ code: 'CARD_DECLINED', category: 'PAYMENT_METHOD_ERROR' }],
    },
    location_id: 'L88917AVBK2S5',
    order_id: ORDER_ID,
    customer_id: 'JDKYHBWT1D4F8MFH63DBMEN8Y4',
  };
  const paymentEvent = (type: string, eventId: string, version: number): string =>
    JSON.stringify({
      merchant_id: '6SSW7HV8K2ST5',
      type,
      event_id: eventId,
      created_at: '2026-03-10T09:00:01Z',
      data: { type: 'payment', id: payment.id, object: { payment: { ...payment, version } } },
    });
  const invoiceFailed = JSON.stringify({
    merchant_id: '6SSW7HV8K2ST5',
    type: 'invoice.scheduled_charge_failed',
    event_id: 'a5b1e4b2-5e9f-4d3e-9c7d-0f5c2d0b8e11',
    created_at: '2026-03-10T09:00:02Z',
    data: {
      type: 'invoice',
      id: 'inv:0-ChA4-3sU9GPd-uOC3HgvFjMWEL4N',
      object: {
        invoice: {
          id: 'inv:0-ChA4-3sU9GPd-uOC3HgvFjMWEL4N',
          version: 3,
          location_id: 'L88917AVBK2S5',
          order_id: ORDER_ID,
          subscription_id: '9ba40961-995a-4a3d-8c53-048c40cafc13',
          status: 'UNPAID',
          primary_recipient: {
            customer_id: 'JDKYHBWT1D4F8MFH63DBMEN8Y4',
            given_name: 'Amelia',
            family_name: 'Earhart',
            email_address: 'amelia.earhart@example.com',
          },
          payment_requests: [
            { uid: '2da7964f-f3d2-4f43-81e8-5aa220bf3355', request_type: 'BALANCE', computed_amount_money: { amount: 1000, currency: 'JPY' } },
          ],
        },
      },
    },
  });

  it("names the invoice's order as the payment of payment.created, payment.updated and invoice.scheduled_charge_failed", () => {
    // Act
    const events = [
      paymentEvent('payment.created', '0b1c6f0e-7a1f-4c0e-9a52-1e0f3c2d4b01', 1),
      paymentEvent('payment.updated', '0b1c6f0e-7a1f-4c0e-9a52-1e0f3c2d4b02', 2),
      invoiceFailed,
    ].flatMap((body) => squareWebhook.normalise(signed(body)));
    // Assess
    expect(events.map((event) => event.type)).toEqual(['payment_failed', 'payment_failed', 'payment_failed']);
    expect(events.map((event) => event.payment?.providerPaymentId)).toEqual([ORDER_ID, ORDER_ID, ORDER_ID]);
    expect(new Set(events.map((event) => `${event.payment?.amount} ${event.payment?.currency}`))).toEqual(new Set(['1000 jpy']));
  });

  it('names the same order when the invoice is paid and when its payment is refunded', () => {
    // Prepare
    const paid = invoiceFailed.replace('invoice.scheduled_charge_failed', 'invoice.payment_made').replace('"UNPAID"', '"PAID"');
    const refund = JSON.stringify({
      merchant_id: '6SSW7HV8K2ST5',
      type: 'refund.updated',
      event_id: 'c2d4e6f8-1a3b-4c5d-8e9f-0a1b2c3d4e5f',
      created_at: '2026-03-12T10:00:00Z',
      data: {
        type: 'refund',
        id: 'rf_1',
        object: {
          refund: {
            id: 'rf_1',
            status: 'COMPLETED',
            amount_money: { amount: 1000, currency: 'JPY' },
            payment_id: 'bP9mAsEMYPUGjjGNaNO5ZDVyLhSZY',
            order_id: ORDER_ID,
          },
        },
      },
    });
    // Act
    const events = [paid, refund].flatMap((body) => squareWebhook.normalise(signed(body)));
    // Assess
    expect(events.map((event) => [event.type, event.payment?.providerPaymentId])).toEqual([
      ['payment_succeeded', ORDER_ID],
      ['charge_refunded', ORDER_ID],
    ]);
  });

  it('keeps the payment id for a payment that names no order', () => {
    // Prepare
    const body = paymentEvent('payment.updated', '0b1c6f0e-7a1f-4c0e-9a52-1e0f3c2d4b03', 2).replace(`"order_id":"${ORDER_ID}",`, '');
    // Act
    const [event] = squareWebhook.normalise(signed(body));
    // Assess
    expect(event?.payment?.providerPaymentId).toBe('bP9mAsEMYPUGjjGNaNO5ZDVyLhSZY');
  });
});
