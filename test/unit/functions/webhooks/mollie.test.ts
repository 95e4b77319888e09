import { createHash, createHmac } from 'node:crypto';
import { mollieWebhook } from '#webhooks/mollie';
import { type InboundWebhook, WebhookPayloadError } from '#webhooks/types';

// @mollie/api-client has no webhook signature helper (neither signing nor verifying), so next-gen
// deliveries are signed here as Mollie documents: X-Mollie-Signature: sha256=<hex HMAC-SHA256 of
// the raw body>, the format Mollie's own PHP client (SignatureValidator) checks.
const SECRET = 'mollie-next-gen-signing-secret-3x9';
const NOW = new Date('2026-03-02T10:00:00Z');

// A failed recurring card payment as Mollie's Get payment reference shows it, embedded in a
// next-gen payment.failed event (full payload).
const FAILED_PAYMENT = {
  resource: 'payment',
  id: 'tr_5B8cwPMGnU6qLbRvo7qEZo',
  mode: 'live',
  status: 'failed',
  amount: { value: '10.00', currency: 'EUR' },
  description: 'Subscription March',
  method: 'creditcard',
  sequenceType: 'recurring',
  createdAt: '2026-03-02T09:59:01+00:00',
  failedAt: '2026-03-02T09:59:40+00:00',
  profileId: 'pfl_QkEhN94Ba',
  customerId: 'cst_8wmqcHMN4U',
  mandateId: 'mdt_h3gAaD5zP',
  subscriptionId: 'sub_rVKGtNd6s3',
  details: {
    cardNumber: '6787',
    cardHolder: 'T. Test',
    cardAudience: 'consumer',
    cardLabel: 'Mastercard',
    cardCountryCode: 'NL',
    failureReason: 'insufficient_funds',
    failureMessage: 'The card has insufficient funds.',
  },
};
const PAYMENT_FAILED_EVENT = {
  resource: 'event',
  id: 'event_GvJ8WHrp5isUdRub9CJyH',
  type: 'payment.failed',
  entityId: 'tr_5B8cwPMGnU6qLbRvo7qEZo',
  createdAt: '2026-03-02T09:59:41+00:00',
  _embedded: { entity: FAILED_PAYMENT },
  _links: { self: { href: 'https://api.mollie.com/v2/events/event_GvJ8WHrp5isUdRub9CJyH', type: 'application/hal+json' } },
};

const sign = (raw: string, secret = SECRET): string => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

const inbound = (raw: string, headers: Record<string, string>): InboundWebhook => ({
  rawBody: Buffer.from(raw),
  headers,
  url: 'https://hooks.example.com/mollie/m_1',
});

describe('mollie webhook', () => {
  it('accepts a next-gen delivery signed with the secret', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED_EVENT);
    // Act
    const verification = await mollieWebhook.verify(inbound(raw, { 'x-mollie-signature': sign(raw) }), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('accepts a bare hex signature and any of several during a secret rotation', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED_EVENT);
    const header = `${sign(raw, 'retired-secret')}, ${sign(raw).slice('sha256='.length)}`;
    // Act
    const verification = await mollieWebhook.verify(inbound(raw, { 'x-mollie-signature': header }), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('refuses a tampered body', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED_EVENT);
    const tampered = raw.replace('"10.00"', '"0.01"');
    // Act
    const verification = await mollieWebhook.verify(inbound(tampered, { 'x-mollie-signature': sign(raw) }), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'X-Mollie-Signature does not match' });
  });

  it('refuses a delivery when the merchant secret is different', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED_EVENT);
    // Act
    const verification = await mollieWebhook.verify(inbound(raw, { 'x-mollie-signature': sign(raw) }), { secret: 'another-secret' }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it('refuses a next-gen JSON event when the X-Mollie-Signature header is missing', async () => {
    // Act
    const verification = await mollieWebhook.verify(inbound(JSON.stringify(PAYMENT_FAILED_EVENT), {}), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing X-Mollie-Signature header' });
  });

  it.each([
    ['an empty prefix', 'sha256='],
    ['a short digest', 'sha256=abcd'],
    ['only commas', ', ,'],
  ])('refuses without throwing when the signature is %s', async (_label, header) => {
    // Act
    const verification = await mollieWebhook.verify(inbound(JSON.stringify(PAYMENT_FAILED_EVENT), { 'x-mollie-signature': header }), { secret: SECRET }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
    expect(JSON.stringify(verification)).not.toContain(SECRET);
  });

  it('accepts an unsigned classic webhook only as a thin event whose truth comes from fetching the payment', async () => {
    // Prepare
    const request = inbound('id=tr_d0b0E3EA3v', { 'content-type': 'application/x-www-form-urlencoded' });
    // Act
    const verification = await mollieWebhook.verify(request, { secret: SECRET }, NOW);
    const events = mollieWebhook.normalise(request);
    // Assess
    expect(verification).toEqual({ ok: true });
    expect(events).toEqual([
      {
        psp: 'mollie',
        providerEventId: createHash('sha256').update('id=tr_d0b0E3EA3v').digest('hex'),
        type: 'payment_failed',
        payment: { providerPaymentId: 'tr_d0b0E3EA3v' },
        fetch: { resource: 'payment', id: 'tr_d0b0E3EA3v' },
      },
    ]);
    expect(events[0]?.payment?.amount).toBeUndefined();
  });

  it.each([
    ['a classic body that claims a status', 'id=tr_d0b0E3EA3v&status=paid'],
    ['a classic body for another resource', 'id=ord_kEn1PlbGa'],
    ['an empty body', ''],
  ])('refuses an unsigned delivery when it is %s', async (_label, raw) => {
    // Act
    const verification = await mollieWebhook.verify(inbound(raw, {}), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing X-Mollie-Signature header' });
  });

  it('normalises a full payment.failed event with minor units, lowercase currency, customer and failureReason', () => {
    // Act
    const events = mollieWebhook.normalise(inbound(JSON.stringify(PAYMENT_FAILED_EVENT), {}));
    // Assess
    expect(events).toEqual([
      {
        psp: 'mollie',
        providerEventId: 'event_GvJ8WHrp5isUdRub9CJyH',
        type: 'payment_failed',
        occurredAt: '2026-03-02T09:59:41+00:00',
        payment: {
          providerPaymentId: 'tr_5B8cwPMGnU6qLbRvo7qEZo',
          amount: 1000,
          currency: 'eur',
          declineCode: 'insufficient_funds',
          network: 'mastercard',
          subscriptionId: 'sub_rVKGtNd6s3',
        },
        customer: { name: 'T. Test', providerCustomerId: 'cst_8wmqcHMN4U' },
      },
    ]);
  });

  it('takes the SEPA bankReasonCode as the decline code for a failed direct debit', () => {
    // Prepare
    const sepa = {
      ...FAILED_PAYMENT,
      method: 'directdebit',
      amount: { value: '1000', currency: 'JPY' },
      details: { consumerName: 'Hr E G H Küppers en/of MW M.J. Küppers-Veeneman', bankReasonCode: 'AM04', bankReason: 'Insufficient funds' },
    };
    // Act
    const [event] = mollieWebhook.normalise(inbound(JSON.stringify({ ...PAYMENT_FAILED_EVENT, _embedded: { entity: sepa } }), {}));
    // Assess
    expect(event?.payment).toMatchObject({ declineCode: 'AM04', amount: 1000, currency: 'jpy' });
    expect(event?.customer?.name).toBe('Hr E G H Küppers en/of MW M.J. Küppers-Veeneman');
  });

  it('normalises a simple-payload payment.paid event into a thin recovered payment to fetch', () => {
    // Prepare
    const { _embedded: _entity, ...simple } = PAYMENT_FAILED_EVENT;
    // Act
    const events = mollieWebhook.normalise(inbound(JSON.stringify({ ...simple, id: 'event_paid', type: 'payment.paid' }), {}));
    // Assess
    expect(events).toEqual([
      {
        psp: 'mollie',
        providerEventId: 'event_paid',
        type: 'payment_succeeded',
        occurredAt: '2026-03-02T09:59:41+00:00',
        payment: { providerPaymentId: 'tr_5B8cwPMGnU6qLbRvo7qEZo' },
        fetch: { resource: 'payment', id: 'tr_5B8cwPMGnU6qLbRvo7qEZo' },
      },
    ]);
  });

  it('normalises chargeback.received into a failed payment with the chargeback reason code', () => {
    // Prepare
    const chargeback = {
      resource: 'chargeback',
      id: 'chb_n9z0tp',
      amount: { value: '10.00', currency: 'EUR' },
      reason: { code: 'AC04', description: 'Account closed' },
      paymentId: 'tr_5B8cwPMGnU6qLbRvo7qEZo',
    };
    const body = { ...PAYMENT_FAILED_EVENT, id: 'event_chb', type: 'chargeback.received', entityId: 'chb_n9z0tp', _embedded: { entity: chargeback } };
    // Act
    const [event] = mollieWebhook.normalise(inbound(JSON.stringify(body), {}));
    // Assess
    expect(event).toMatchObject({
      type: 'payment_failed',
      payment: { providerPaymentId: 'tr_5B8cwPMGnU6qLbRvo7qEZo', amount: 1000, currency: 'eur', declineCode: 'AC04' },
    });
  });

  it.each([['payment.expired'], ['hook.ping']])('ignores %s, an event the service does not use', (type) => {
    // Prepare
    const body = { resource: 'event', id: 'event_other', type, createdAt: '2026-03-02T09:59:41+00:00' };
    // Act and assess
    expect(mollieWebhook.normalise(inbound(JSON.stringify(body), {}))).toEqual([]);
  });

  it.each([
    ['neither a classic id nor JSON', 'id=cst_8wmqcHMN4U'],
    ['a payment resource instead of an event', JSON.stringify(FAILED_PAYMENT)],
    ['an event without entityId', JSON.stringify({ ...PAYMENT_FAILED_EVENT, entityId: undefined })],
    [
      'an amount with too many decimals',
      JSON.stringify({ ...PAYMENT_FAILED_EVENT, _embedded: { entity: { ...FAILED_PAYMENT, amount: { value: '10.001', currency: 'EUR' } } } }),
    ],
  ])('throws WebhookPayloadError when the verified body is %s', (_label, raw) => {
    // Act and assess
    expect(() => mollieWebhook.normalise(inbound(raw, {}))).toThrow(WebhookPayloadError);
  });
});
