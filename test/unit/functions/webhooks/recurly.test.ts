import { createHash, createHmac } from 'node:crypto';
import { recurlyWebhook } from '#webhooks/recurly';
import { type InboundWebhook, TIMESTAMP_TOLERANCE_SECONDS, WebhookPayloadError } from '#webhooks/types';

// Recurly has no Node verifier or signer (recurly-client-node#324; the `recurly` package is not
// installed here either), so deliveries are signed as Recurly documents and as its Ruby client's
// Recurly::Webhooks.verify_signature checks: header `<unix ms>,<hex>[,<hex>]`, hex =
// HMAC-SHA256(secret, "<unix ms>.<raw body>").
const SECRET = 'recurly-endpoint-secret-5d1e';
const NOW = new Date('2026-03-02T10:00:00Z');

// Recurly's documented JSON payment notification: metadata only.
const THIN_FAILED = {
  id: 'rafhdbbf41mc',
  object_type: 'payment',
  site_id: 'qc326l1hl8k9',
  event_type: 'failed',
  event_time: '2026-03-02T09:59:58Z',
  uuid: '63b068f7d409d4b4478dea4e6aba58ae',
  account_code: 'acct-1042',
};

// The full failed_payment_notification (fields of Recurly's documented XML notification).
const FULL_FAILED = {
  failed_payment_notification: {
    account: { account_code: 'acct-1042', username: null, email: 'verena@example.com', first_name: 'Verena', last_name: 'Example', company_name: null },
    transaction: {
      id: 'a5143c1d3a6f4a8287d0e2cc1d4c0427',
      invoice_id: '1974a09kj90s0789dsf099798326881c',
      invoice_number: 2059,
      subscription_id: '1974a098jhlkjasdfljkha898326881c',
      action: 'purchase',
      date: '2026-03-02T09:59:57Z',
      amount_in_cents: 1000,
      currency: 'USD',
      status: 'declined',
      message: 'Your card was declined due to insufficient funds.',
      gateway_error_codes: '51',
      failure_type: 'Declined by the gateway',
      reference: '',
      source: 'subscription',
      test: true,
      voidable: false,
      refundable: false,
    },
  },
};

const sign = (raw: string, timestampMs: number, secret = SECRET): string =>
  `${timestampMs},${createHmac('sha256', secret).update(`${timestampMs}.${raw}`).digest('hex')}`;

const inbound = (raw: string, headers: Record<string, string>): InboundWebhook => ({
  rawBody: Buffer.from(raw),
  headers,
  url: 'https://hooks.example.com/recurly/m_1',
});

describe('recurly webhook', () => {
  it('accepts a delivery signed with the secret at the current time', async () => {
    // Prepare
    const raw = JSON.stringify(THIN_FAILED);
    // Act
    const verification = await recurlyWebhook.verify(inbound(raw, { 'recurly-signature': sign(raw, NOW.getTime()) }), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('accepts either signature during a key rotation', async () => {
    // Prepare
    const raw = JSON.stringify(THIN_FAILED);
    const ts = NOW.getTime();
    const header = `${sign(raw, ts, 'old-secret')},${sign(raw, ts).split(',')[1]}`;
    // Act
    const verification = await recurlyWebhook.verify(inbound(raw, { 'recurly-signature': header }), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('accepts a timestamp in seconds, as one of Recurly’s examples shows', async () => {
    // Prepare
    const raw = JSON.stringify(THIN_FAILED);
    const seconds = Math.floor(NOW.getTime() / 1000);
    // Act
    const verification = await recurlyWebhook.verify(inbound(raw, { 'recurly-signature': sign(raw, seconds) }), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('refuses a tampered body', async () => {
    // Prepare
    const raw = JSON.stringify(THIN_FAILED);
    const tampered = raw.replace('"failed"', '"succeeded"');
    // Act
    const verification = await recurlyWebhook.verify(inbound(tampered, { 'recurly-signature': sign(raw, NOW.getTime()) }), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'recurly-signature does not match' });
  });

  it('refuses a delivery when the merchant secret is different', async () => {
    // Prepare
    const raw = JSON.stringify(THIN_FAILED);
    // Act
    const verification = await recurlyWebhook.verify(inbound(raw, { 'recurly-signature': sign(raw, NOW.getTime()) }), { secret: 'another-secret' }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it.each([
    ['stale', -(TIMESTAMP_TOLERANCE_SECONDS + 1)],
    ['future', TIMESTAMP_TOLERANCE_SECONDS + 1],
  ])('refuses a %s timestamp outside the tolerance', async (_label, offsetSeconds) => {
    // Prepare
    const raw = JSON.stringify(THIN_FAILED);
    // Act
    const verification = await recurlyWebhook.verify(
      inbound(raw, { 'recurly-signature': sign(raw, NOW.getTime() + offsetSeconds * 1000) }),
      { secret: SECRET },
      NOW,
    );
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'recurly-signature timestamp is outside the tolerance' });
  });

  it('refuses a delivery when the recurly-signature header is missing', async () => {
    // Act
    const verification = await recurlyWebhook.verify(inbound(JSON.stringify(THIN_FAILED), {}), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing recurly-signature header' });
  });

  it.each([
    ['a timestamp alone', String(NOW.getTime())],
    ['a signature without timestamp', 'a8c8524a0cdd99e36b55d9fdf6c8aed2c2315dfa1a36c4961f65986ee6cf6ae9'],
    ['a non-numeric timestamp', 'yesterday,a8c8'],
    ['a truncated signature', `${NOW.getTime()},a8c8`],
  ])('refuses without throwing when the header is %s', async (_label, header) => {
    // Act
    const verification = await recurlyWebhook.verify(inbound(JSON.stringify(THIN_FAILED), { 'recurly-signature': header }), { secret: SECRET }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
    expect(JSON.stringify(verification)).not.toContain(SECRET);
  });

  it('normalises a thin payment.failed notification into a failed payment to fetch by transaction uuid', () => {
    // Act
    const events = recurlyWebhook.normalise(inbound(JSON.stringify(THIN_FAILED), {}));
    // Assess
    expect(events).toEqual([
      {
        psp: 'recurly',
        providerEventId: 'rafhdbbf41mc:payment.failed:2026-03-02T09:59:58Z',
        type: 'payment_failed',
        occurredAt: '2026-03-02T09:59:58Z',
        payment: { providerPaymentId: '63b068f7d409d4b4478dea4e6aba58ae' },
        customer: { providerCustomerId: 'acct-1042' },
        fetch: { resource: 'transaction', id: 'uuid-63b068f7d409d4b4478dea4e6aba58ae' },
      },
    ]);
  });

  it('normalises a full failed_payment_notification with cents, lowercase currency, customer and gateway_error_codes', () => {
    // Prepare
    const raw = JSON.stringify(FULL_FAILED);
    // Act
    const events = recurlyWebhook.normalise(inbound(raw, {}));
    // Assess
    expect(events).toEqual([
      {
        psp: 'recurly',
        providerEventId: createHash('sha256').update(raw).digest('hex'),
        type: 'payment_failed',
        occurredAt: '2026-03-02T09:59:57Z',
        payment: {
          providerPaymentId: 'a5143c1d3a6f4a8287d0e2cc1d4c0427',
          amount: 1000,
          currency: 'usd',
          declineCode: '51',
          invoiceId: '1974a09kj90s0789dsf099798326881c',
          subscriptionId: '1974a098jhlkjasdfljkha898326881c',
        },
        customer: { email: 'verena@example.com', name: 'Verena Example', providerCustomerId: 'acct-1042' },
      },
    ]);
  });

  it('normalises a thin payment.succeeded notification into a recovered payment', () => {
    // Prepare
    const body = { ...THIN_FAILED, id: 'rafhdbbf41md', event_type: 'succeeded', uuid: '63b068f7d409d4b4478dea4e6aba58af' };
    // Act
    const [event] = recurlyWebhook.normalise(inbound(JSON.stringify(body), {}));
    // Assess
    expect(event).toMatchObject({
      type: 'payment_succeeded',
      payment: { providerPaymentId: '63b068f7d409d4b4478dea4e6aba58af' },
      fetch: { resource: 'transaction', id: 'uuid-63b068f7d409d4b4478dea4e6aba58af' },
    });
  });

  it('normalises a thin subscription.canceled notification into a cancelled subscription', () => {
    // Prepare
    const body = {
      id: 'rafhdbbf41me',
      object_type: 'subscription',
      site_id: 'qc326l1hl8k9',
      event_type: 'canceled',
      event_time: '2026-03-02T10:00:00Z',
      uuid: '4110792b3b01967d854f674b7282f542',
      account_code: 'acct-1042',
    };
    // Act
    const [event] = recurlyWebhook.normalise(inbound(JSON.stringify(body), {}));
    // Assess
    expect(event).toMatchObject({
      type: 'subscription_cancelled',
      payment: { subscriptionId: '4110792b3b01967d854f674b7282f542' },
      fetch: { resource: 'subscription', id: 'uuid-4110792b3b01967d854f674b7282f542' },
    });
  });

  it.each([
    ['a thin charge_invoice.past_due', { ...THIN_FAILED, object_type: 'charge_invoice', event_type: 'past_due' }],
    ['a full new_account_notification', { new_account_notification: { account: { account_code: 'acct-1042' } } }],
  ])('ignores %s, an event the service does not use', (_label, body) => {
    // Act and assess
    expect(recurlyWebhook.normalise(inbound(JSON.stringify(body), {}))).toEqual([]);
  });

  it.each([
    ['XML', '<?xml version="1.0"?><failed_payment_notification/>'],
    ['a thin payment event without uuid', JSON.stringify({ ...THIN_FAILED, uuid: undefined })],
    ['an object that is neither shape', JSON.stringify({ hello: 'world' })],
    [
      'a failed payment with a fractional amount_in_cents',
      JSON.stringify({
        failed_payment_notification: {
          ...FULL_FAILED.failed_payment_notification,
          transaction: { ...FULL_FAILED.failed_payment_notification.transaction, amount_in_cents: 10.5 },
        },
      }),
    ],
  ])('throws WebhookPayloadError when the verified body is %s', (_label, raw) => {
    // Act and assess
    expect(() => recurlyWebhook.normalise(inbound(raw, {}))).toThrow(WebhookPayloadError);
  });
});
