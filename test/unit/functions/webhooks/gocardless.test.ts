import { createHmac } from 'node:crypto';
import { parse, parseWithMeta } from 'gocardless-nodejs/webhooks';
import { gocardlessWebhook } from '#webhooks/gocardless';
import { type InboundWebhook, WebhookPayloadError } from '#webhooks/types';

// gocardless-nodejs can only verify (webhooks.parse / parseWithMeta), so the tests sign the raw body
// with HMAC-SHA256 as GoCardless documents and ask both the SDK and our module.
const SECRET = 'gc-endpoint-secret-7hQ2xWk9';
const NOW = new Date('2026-03-02T10:00:00Z');

// After GoCardless's payments/failed example: the event carries ids in links and the cause in
// details, but no amount, currency or email.
const FAILED_EVENT = {
  id: 'EV0123FAILED',
  created_at: '2026-03-02T09:58:12.123Z',
  resource_type: 'payments',
  action: 'failed',
  links: { payment: 'PM0042ABCD', subscription: 'SB00AB12CD', mandate: 'MD0011XYZ' },
  details: {
    origin: 'bank',
    cause: 'insufficient_funds',
    scheme: 'bacs',
    reason_code: 'ARUDD-0',
    description: "The customer's account had insufficient funds to make this payment.",
    will_attempt_retry: false,
  },
  metadata: {},
  resource_metadata: {},
};
const CONFIRMED_EVENT = {
  id: 'EV0124CONFIRMED',
  created_at: '2026-03-05T09:00:00.000Z',
  resource_type: 'payments',
  action: 'confirmed',
  links: { payment: 'PM0043EFGH', subscription: 'SB00AB12CD' },
  details: {
    origin: 'gocardless',
    cause: 'payment_confirmed',
    description: 'Enough time has passed since the payment was submitted for the banks to return an error, so this payment is now confirmed.',
  },
  metadata: {},
};
const PAYOUT_EVENT = {
  id: 'EV0125PAYOUT',
  created_at: '2026-03-05T10:00:00.000Z',
  resource_type: 'payouts',
  action: 'paid',
  links: { payout: 'PO0001' },
  details: { origin: 'gocardless', cause: 'payout_paid' },
  metadata: {},
};

const body = (...events: unknown[]): string => JSON.stringify({ events, meta: { webhook_id: 'WB0001ABC' } });

const sign = (raw: string, secret = SECRET): string => createHmac('sha256', secret).update(raw).digest('hex');

const inbound = (raw: string, headers: Record<string, string>): InboundWebhook => ({
  rawBody: Buffer.from(raw),
  headers,
  url: 'https://hooks.example.com/gocardless/m_1',
});

/** What the SDK's parse makes of the request: the events it returns, or the name of what it threw. */
function sdkParse(raw: string, signature: string, secret = SECRET): { events?: unknown[]; thrown?: string } {
  try {
    return { events: parse(Buffer.from(raw), secret, signature) };
  } catch (thrown) {
    return { thrown: (thrown as { name?: string }).name };
  }
}

describe('gocardless webhook', () => {
  it('accepts a delivery signed with the secret, as the SDK does', async () => {
    // Prepare
    const raw = body(FAILED_EVENT);
    const signature = sign(raw);
    // Act
    const ours = await gocardlessWebhook.verify(inbound(raw, { 'webhook-signature': signature }), { secret: SECRET }, NOW);
    const sdk = parseWithMeta(Buffer.from(raw), SECRET, signature);
    // Assess
    expect(ours).toEqual({ ok: true });
    expect(sdk.webhookId).toBe('WB0001ABC');
    expect(sdk.events.map((event) => event.id)).toEqual(['EV0123FAILED']);
  });

  it('refuses a tampered body, as the SDK does', async () => {
    // Prepare
    const raw = body(FAILED_EVENT);
    const signature = sign(raw);
    const tampered = raw.replace('insufficient_funds', 'refer_to_payer');
    // Act
    const ours = await gocardlessWebhook.verify(inbound(tampered, { 'webhook-signature': signature }), { secret: SECRET }, NOW);
    const sdk = sdkParse(tampered, signature);
    // Assess
    expect(ours).toEqual({ ok: false, reason: 'Webhook-Signature does not match' });
    expect(sdk.thrown).toBe('InvalidSignatureError');
  });

  it('refuses a delivery when the merchant secret is different, as the SDK does', async () => {
    // Prepare
    const raw = body(FAILED_EVENT);
    const signature = sign(raw);
    // Act
    const ours = await gocardlessWebhook.verify(inbound(raw, { 'webhook-signature': signature }), { secret: 'another-endpoint-secret' }, NOW);
    const sdk = sdkParse(raw, signature, 'another-endpoint-secret');
    // Assess
    expect(ours.ok).toBe(false);
    expect(sdk.thrown).toBe('InvalidSignatureError');
  });

  it('accepts an upper-case hex signature, as the SDK does', async () => {
    // Prepare
    const raw = body(FAILED_EVENT);
    const signature = sign(raw).toUpperCase();
    // Act
    const ours = await gocardlessWebhook.verify(inbound(raw, { 'webhook-signature': signature }), { secret: SECRET }, NOW);
    const sdk = sdkParse(raw, signature);
    // Assess
    expect(ours).toEqual({ ok: true });
    expect(sdk.events).toHaveLength(1);
  });

  it('refuses a delivery when the Webhook-Signature header is missing', async () => {
    // Act
    const verification = await gocardlessWebhook.verify(inbound(body(FAILED_EVENT), {}), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing Webhook-Signature header' });
  });

  it.each([
    ['too short', 'abc123'],
    ['not hex', 'z'.repeat(64)],
    ['multi-byte text', 'é'.repeat(64)],
  ])('refuses without throwing when the signature is %s', async (_label, signature) => {
    // Act
    const verification = await gocardlessWebhook.verify(inbound(body(FAILED_EVENT), { 'webhook-signature': signature }), { secret: SECRET }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
    expect(JSON.stringify(verification)).not.toContain(SECRET);
  });

  it('normalises payments/failed into a thin failed payment with the cause as decline code and the payment to fetch', () => {
    // Act
    const events = gocardlessWebhook.normalise(inbound(body(FAILED_EVENT), {}));
    // Assess: GoCardless events carry no amount, currency or email; those come from the fetched payment.
    expect(events).toEqual([
      {
        psp: 'gocardless',
        providerEventId: 'EV0123FAILED',
        type: 'payment_failed',
        occurredAt: '2026-03-02T09:58:12.123Z',
        payment: { providerPaymentId: 'PM0042ABCD', declineCode: 'insufficient_funds', subscriptionId: 'SB00AB12CD' },
        fetch: { resource: 'payment', id: 'PM0042ABCD' },
      },
    ]);
  });

  it('normalises each event of a batch and skips the ones the service does not use', () => {
    // Act
    const events = gocardlessWebhook.normalise(inbound(body(FAILED_EVENT, PAYOUT_EVENT, CONFIRMED_EVENT), {}));
    // Assess
    expect(events.map((event) => [event.providerEventId, event.type, event.fetch?.id])).toEqual([
      ['EV0123FAILED', 'payment_failed', 'PM0042ABCD'],
      ['EV0124CONFIRMED', 'payment_succeeded', 'PM0043EFGH'],
    ]);
    expect(events[1]?.payment?.declineCode).toBeUndefined();
  });

  it('normalises mandates/replaced into payment_method_updated fetching the new mandate', () => {
    // Prepare
    const replaced = {
      id: 'EV0200',
      created_at: '2026-03-03T00:00:00.000Z',
      resource_type: 'mandates',
      action: 'replaced',
      links: { mandate: 'MD0011XYZ', new_mandate: 'MD0099NEW', customer: 'CU0001' },
      details: { origin: 'gocardless', cause: 'scheme_identifier_changed' },
    };
    // Act
    const [event] = gocardlessWebhook.normalise(inbound(body(replaced), {}));
    // Assess
    expect(event).toMatchObject({
      type: 'payment_method_updated',
      customer: { providerCustomerId: 'CU0001' },
      fetch: { resource: 'mandate', id: 'MD0099NEW' },
    });
  });

  it('ignores a payout event the service does not use', () => {
    // Act and assess
    expect(gocardlessWebhook.normalise(inbound(body(PAYOUT_EVENT), {}))).toEqual([]);
  });

  it.each([
    ['not JSON', 'events='],
    ['a body without an events array', JSON.stringify({ meta: { webhook_id: 'WB1' } })],
    ['a failed payment without links.payment', body({ ...FAILED_EVENT, links: {} })],
    ['an event without an id', body({ ...FAILED_EVENT, id: undefined })],
  ])('throws WebhookPayloadError when the verified body is %s', (_label, raw) => {
    // Act and assess
    expect(() => gocardlessWebhook.normalise(inbound(raw, {}))).toThrow(WebhookPayloadError);
  });
});
