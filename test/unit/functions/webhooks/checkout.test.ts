import { createHmac } from 'node:crypto';
import { checkoutWebhook } from '#webhooks/checkout';
import { type InboundWebhook, WebhookPayloadError } from '#webhooks/types';

// checkout-sdk-node has no signing helper: deliveries are signed here per Checkout.com's documented
// scheme, Cko-Signature = HMAC-SHA256(raw body) in lowercase hex, keyed by the webhook's secret key.
const SECRET = 'cko_whsk_0f9d8c7b6a5e4d3c2b1a';
const NOW = new Date('2026-03-10T12:00:00Z');

const sign = (body: string, secret = SECRET): string => createHmac('sha256', secret).update(body, 'utf8').digest('hex');

const inbound = (body: string, headers: Record<string, string>): InboundWebhook => ({
  rawBody: Buffer.from(body, 'utf8'),
  headers,
  url: 'https://recovery.example.com/checkout/merchant_1',
});

const signed = (body: string): InboundWebhook => inbound(body, { 'cko-signature': sign(body) });

/** The payment_declined example from checkout.com/docs (webhook-event-types/payment_declined), with the raw-code fields. */
const paymentDeclined = JSON.stringify({
  id: 'evt_wlbf3ivtsjjuxjabg3jlju4ysa',
  type: 'payment_declined',
  version: '1.0.29',
  created_on: '2023-05-24T09:31:19.3352174Z',
  data: {
    id: 'pay_do6kcxcq4pwehkbrupwnohnbyq',
    action_id: 'act_kjxqqajgnyie3l66ujvddw7gqm',
    reference: 'ORD-5023-4E89',
    amount: 40000,
    auth_code: '710130',
    currency: 'EUR',
    customer: { id: 'cus_m3cixs4slzcelfjmdcodlgyvkq', email: 'bruce.wayne@example.com', name: 'Bruce Wayne' },
    payment_type: 'Regular',
    processed_on: '2023-05-24T09:31:17.4752751Z',
    processing: {
      acquirer_transaction_id: '623951711607972924924',
      retrieval_reference_number: '053353257136',
      partner_response_code: '51',
      partner_merchant_advice_code: '24',
      scheme: 'MASTERCARD',
    },
    response_code: '20051',
    response_summary: 'Insufficient Funds',
    risk: { flagged: false, score: 0 },
    source: { id: 'src_d5e4jlpi3syepp7nrjo3jk734a', type: 'card', expiry_month: 6, expiry_year: 2025, scheme: 'MASTERCARD', last_4: '9256' },
  },
  _links: { self: { href: 'https://api.checkout.com/events/evt_wlbf3ivtsjjuxjabg3jlju4ysa' } },
});

describe('checkout webhook', () => {
  it('accepts a delivery when Cko-Signature is the HMAC of the body under the secret key', async () => {
    // Act
    const verification = await checkoutWebhook.verify(signed(paymentDeclined), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('accepts a delivery when the signature arrives in uppercase hex', async () => {
    // Act
    const verification = await checkoutWebhook.verify(
      inbound(paymentDeclined, { 'cko-signature': sign(paymentDeclined).toUpperCase() }),
      { secret: SECRET },
      NOW,
    );
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('refuses a delivery when the body was changed after signing', async () => {
    // Prepare
    const tampered = inbound(paymentDeclined.replace('40000', '4'), { 'cko-signature': sign(paymentDeclined) });
    // Act
    const verification = await checkoutWebhook.verify(tampered, { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'Cko-Signature does not match the body' });
  });

  it('refuses a delivery when it was signed with another secret key', async () => {
    // Prepare
    const request = inbound(paymentDeclined, { 'cko-signature': sign(paymentDeclined, 'another-key') });
    // Act
    const verification = await checkoutWebhook.verify(request, { secret: SECRET }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it('refuses a delivery when the Cko-Signature header is missing', async () => {
    // Act
    const verification = await checkoutWebhook.verify(inbound(paymentDeclined, {}), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing Cko-Signature header' });
  });

  it('refuses without throwing when the signature is truncated or not hex', async () => {
    // Prepare
    const headers = [sign(paymentDeclined).slice(0, 10), 'zz'.repeat(32), '\u00e9'.repeat(64)];
    // Act
    const verifications = await Promise.all(
      headers.map((header) => checkoutWebhook.verify(inbound(paymentDeclined, { 'cko-signature': header }), { secret: SECRET }, NOW)),
    );
    // Assess
    expect(verifications.every((verification) => !verification.ok)).toBe(true);
  });

  it('maps the event to payment_failed with the response code, raw scheme code and merchant advice code when a payment is declined', () => {
    // Act
    const events = checkoutWebhook.normalise(signed(paymentDeclined));
    // Assess
    expect(events).toEqual([
      {
        psp: 'checkout',
        providerEventId: 'evt_wlbf3ivtsjjuxjabg3jlju4ysa',
        type: 'payment_failed',
        occurredAt: '2023-05-24T09:31:19.3352174Z',
        payment: {
          providerPaymentId: 'pay_do6kcxcq4pwehkbrupwnohnbyq',
          amount: 40000,
          currency: 'eur',
          declineCode: '20051',
          networkCode: '51',
          adviceCode: '24',
          network: 'mastercard',
        },
        customer: { providerCustomerId: 'cus_m3cixs4slzcelfjmdcodlgyvkq', email: 'bruce.wayne@example.com', name: 'Bruce Wayne' },
      },
    ]);
  });

  it('maps the event to payment_succeeded without decline codes when a payment is captured', () => {
    // Prepare
    const body = JSON.stringify({
      id: 'evt_captured',
      type: 'payment_captured',
      created_on: '2023-05-25T09:31:19Z',
      data: {
        id: 'pay_do6kcxcq4pwehkbrupwnohnbyq',
        amount: 40000,
        currency: 'EUR',
        response_code: '10000',
        customer: { id: 'cus_m3cixs4slzcelfjmdcodlgyvkq' },
      },
    });
    // Act
    const [event] = checkoutWebhook.normalise(signed(body));
    // Assess
    expect(event).toEqual({
      psp: 'checkout',
      providerEventId: 'evt_captured',
      type: 'payment_succeeded',
      occurredAt: '2023-05-25T09:31:19Z',
      payment: { providerPaymentId: 'pay_do6kcxcq4pwehkbrupwnohnbyq', amount: 40000, currency: 'eur' },
      customer: { providerCustomerId: 'cus_m3cixs4slzcelfjmdcodlgyvkq' },
    });
  });

  it('returns no events when the event type is one the service does not use', () => {
    // Prepare
    const body = JSON.stringify({ id: 'evt_dispute', type: 'dispute_evidence_required', created_on: '2023-05-25T09:31:19Z', data: { id: 'dsp_1' } });
    // Act
    const events = checkoutWebhook.normalise(signed(body));
    // Assess
    expect(events).toEqual([]);
  });

  it('throws WebhookPayloadError when a verified event has no data object or a negative amount', () => {
    // Prepare
    const noData = signed(JSON.stringify({ id: 'evt_1', type: 'payment_declined' }));
    const badAmount = signed(JSON.stringify({ id: 'evt_1', type: 'payment_declined', data: { id: 'pay_1', amount: -5, currency: 'EUR' } }));
    // Act
    const readNoData = (): unknown => checkoutWebhook.normalise(noData);
    const readBadAmount = (): unknown => checkoutWebhook.normalise(badAmount);
    // Assess
    expect(readNoData).toThrow(WebhookPayloadError);
    expect(readBadAmount).toThrow(WebhookPayloadError);
  });
});

describe('checkout events of one failed payment', () => {
  // Every payment event's data.id is the payment (pay_…); each attempt or capture is an action
  // (act_…) of it, so declines of one payment name one payment, whichever action failed.
  const PAYMENT_ID = 'pay_do6kcxcq4pwehkbrupwnohnbyq';
  const event = (id: string, type: string, data: object): string =>
    JSON.stringify({ id, type, version: '1.0.29', created_on: '2023-05-24T09:31:19Z', data: { id: PAYMENT_ID, currency: 'EUR', ...data } });

  it('names the payment, not the action, in a decline, a retried decline and a declined capture', () => {
    // Prepare
    const deliveries = [
      event('evt_declined_attempt1', 'payment_declined', {
        action_id: 'act_attempt1',
        amount: 40000,
        response_code: '20051',
        response_summary: 'Insufficient Funds',
      }),
      event('evt_retry_scheduled', 'payment_retry_scheduled', { action_id: 'act_attempt1', amount: 40000, retry: { attempt: 2 } }),
      event('evt_declined_attempt2', 'payment_declined', {
        action_id: 'act_attempt2',
        amount: 40000,
        response_code: '20051',
        response_summary: 'Insufficient Funds',
      }),
      event('evt_capture_declined', 'payment_capture_declined', {
        action_id: 'act_capture1',
        amount: 40000,
        response_code: '20005',
        response_summary: 'Declined - Do Not Honour',
      }),
    ];
    // Act
    const events = deliveries.flatMap((body) => checkoutWebhook.normalise(signed(body)));
    // Assess
    expect(events.map((normalised) => [normalised.providerEventId, normalised.type, normalised.payment?.providerPaymentId])).toEqual([
      ['evt_declined_attempt1', 'payment_failed', PAYMENT_ID],
      ['evt_declined_attempt2', 'payment_failed', PAYMENT_ID],
      ['evt_capture_declined', 'payment_failed', PAYMENT_ID],
    ]);
  });
});
