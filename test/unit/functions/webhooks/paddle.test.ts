import { createHmac } from 'node:crypto';
import { Paddle } from '@paddle/paddle-node-sdk';
import { paddleWebhook } from '#webhooks/paddle';
import { type InboundWebhook, TIMESTAMP_TOLERANCE_SECONDS, WebhookPayloadError } from '#webhooks/types';

// Paddle's SDK verifies (webhooks.isSignatureValid / unmarshal) but cannot sign, so the tests sign
// `${ts}:${rawBody}` with HMAC-SHA256 as Paddle documents and ask both the SDK and our module. The
// SDK checks against the real clock with a 5 s window, so SDK comparisons sign with the current time.
const SECRET = 'pdl_ntfset_01hgkk1p2t0bzdpyfmg3k2m6qz_Rv5xqZTfwrA+z6nQIKaVTEq5R3g6ckCm';
const paddle = new Paddle('pdl_sdbx_apikey_unused_in_these_tests');

// After the SDK's transaction-payment-failed mock (Paddle's documented payload), trimmed.
const PAYMENT_FAILED = {
  event_id: 'evt_01h8e1exw67n96j6n0h3k2qq5x',
  event_type: 'transaction.payment_failed',
  occurred_at: '2023-08-22T07:13:34.599095Z',
  notification_id: 'ntf_01h8e1exynb84v9qs8bam1dp4z',
  data: {
    id: 'txn_01h8dzxgkvdwemdhbpcapj2tbj',
    status: 'past_due',
    origin: 'subscription_recurring',
    customer_id: 'ctm_01h8e18bxp9hby49dnm8ewf0m0',
    address_id: 'add_01h8e18bzb5av13cd16m5gz214',
    subscription_id: 'sub_01h8e18e0vh5swdqwx8ht2cr5j',
    invoice_id: 'inv_01h8e1ewfjy1ytkr6y8jv9p1ca',
    currency_code: 'USD',
    collection_mode: 'automatic',
    created_at: '2023-08-22T06:46:35.440187Z',
    updated_at: '2023-08-22T07:10:00.300009Z',
    items: [
      {
        price: {
          id: 'pri_01gsz8x8sawmvhz1pv30nge1ke',
          product_id: 'pro_01gsz4t5hdjse780zja8vvr7jg',
          description: 'Monthly (per seat)',
          name: 'Monthly (per seat)',
          status: 'active',
          tax_mode: 'account_setting',
          type: 'standard',
          billing_cycle: { interval: 'month', frequency: 1 },
          trial_period: null,
          unit_price: { amount: '59900', currency_code: 'USD' },
          unit_price_overrides: [],
          quantity: { minimum: 1, maximum: 1 },
          custom_data: null,
        },
        quantity: 1,
      },
    ],
    details: {
      totals: {
        subtotal: '59900',
        tax: '5315',
        discount: '0',
        total: '65215',
        grand_total: '65215',
        credit: '0',
        balance: '65215',
        fee: null,
        earnings: null,
        currency_code: 'USD',
      },
      tax_rates_used: [{ tax_rate: '0.08875', totals: { subtotal: '59900', discount: '0', tax: '5315', total: '65215' } }],
      line_items: [],
    },
    payments: [
      {
        amount: '65215',
        status: 'error',
        created_at: '2023-08-22T07:13:26.837726Z',
        error_code: 'not_enough_balance',
        captured_at: null,
        method_details: { type: 'card', card: { type: 'visa', last4: '0000', expiry_year: 2025, expiry_month: 12, cardholder_name: 'Jo Williams' } },
        payment_attempt_id: '3e575fab-e1f2-4168-9ef7-3dd724f450a0',
        stored_payment_method_id: '6fd9d503-085a-4af1-a562-f05d7217cdd2',
      },
      {
        amount: '65215',
        status: 'error',
        created_at: '2023-08-21T07:13:26.837726Z',
        error_code: 'issuer_unavailable',
        method_details: { type: 'card', card: { type: 'visa', last4: '0000', expiry_year: 2025, expiry_month: 12 } },
        payment_attempt_id: '1c1b5e1a-0a8c-4d3f-8a7e-5b9e0c2d4f61',
      },
    ],
  },
};

const sign = (rawBody: string, ts: number, secret = SECRET): string => `ts=${ts};h1=${createHmac('sha256', secret).update(`${ts}:${rawBody}`).digest('hex')}`;

const inbound = (rawBody: string, headers: Record<string, string>): InboundWebhook => ({
  rawBody: Buffer.from(rawBody),
  headers,
  url: 'https://hooks.example.com/paddle/m_1',
});

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

describe('paddle webhook', () => {
  it('accepts a delivery signed with the secret, as the SDK does', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    const ts = nowSeconds();
    const header = sign(raw, ts);
    // Act
    const ours = await paddleWebhook.verify(inbound(raw, { 'paddle-signature': header }), { secret: SECRET }, new Date(ts * 1000));
    const sdk = await paddle.webhooks.isSignatureValid(raw, SECRET, header);
    const unmarshalled = await paddle.webhooks.unmarshal(raw, SECRET, header);
    // Assess
    expect(ours).toEqual({ ok: true });
    expect(sdk).toBe(true);
    expect(unmarshalled.eventId).toBe('evt_01h8e1exw67n96j6n0h3k2qq5x');
  });

  it('refuses a tampered body, as the SDK does', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    const ts = nowSeconds();
    const header = sign(raw, ts);
    const tampered = raw.replace('"65215"', '"1"');
    // Act
    const ours = await paddleWebhook.verify(inbound(tampered, { 'paddle-signature': header }), { secret: SECRET }, new Date(ts * 1000));
    const sdk = await paddle.webhooks.isSignatureValid(tampered, SECRET, header);
    // Assess
    expect(ours).toEqual({ ok: false, reason: 'Paddle-Signature does not match' });
    expect(sdk).toBe(false);
  });

  it('refuses a delivery when the merchant secret is different, as the SDK does', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    const ts = nowSeconds();
    const header = sign(raw, ts);
    // Act
    const ours = await paddleWebhook.verify(inbound(raw, { 'paddle-signature': header }), { secret: 'pdl_ntfset_other' }, new Date(ts * 1000));
    const sdk = await paddle.webhooks.isSignatureValid(raw, 'pdl_ntfset_other', header);
    // Assess
    expect(ours.ok).toBe(false);
    expect(sdk).toBe(false);
  });

  it('verifies the raw bytes as received when the JSON is not compactly serialised', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED, null, 2);
    const ts = 1_772_445_600;
    // Act
    const verification = await paddleWebhook.verify(inbound(raw, { 'paddle-signature': sign(raw, ts) }), { secret: SECRET }, new Date(ts * 1000));
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('accepts a delivery when any h1 matches during a secret rotation', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    const ts = 1_772_445_600;
    const header = `${sign(raw, ts, 'pdl_ntfset_old')};${sign(raw, ts).split(';')[1]}`;
    // Act
    const verification = await paddleWebhook.verify(inbound(raw, { 'paddle-signature': header }), { secret: SECRET }, new Date(ts * 1000));
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it.each([
    ['stale', -(TIMESTAMP_TOLERANCE_SECONDS + 1)],
    ['future', TIMESTAMP_TOLERANCE_SECONDS + 1],
  ])('refuses a %s timestamp outside the tolerance', async (_label, offset) => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    const now = 1_772_445_600;
    // Act
    const verification = await paddleWebhook.verify(inbound(raw, { 'paddle-signature': sign(raw, now + offset) }), { secret: SECRET }, new Date(now * 1000));
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'Paddle-Signature timestamp is outside the tolerance' });
  });

  it('accepts a timestamp at the edge of the tolerance', async () => {
    // Prepare
    const raw = JSON.stringify(PAYMENT_FAILED);
    const now = 1_772_445_600;
    // Act
    const verification = await paddleWebhook.verify(
      inbound(raw, { 'paddle-signature': sign(raw, now - TIMESTAMP_TOLERANCE_SECONDS) }),
      { secret: SECRET },
      new Date(now * 1000),
    );
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('refuses a delivery when the Paddle-Signature header is missing', async () => {
    // Act
    const verification = await paddleWebhook.verify(inbound('{}', {}), { secret: SECRET }, new Date());
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing Paddle-Signature header' });
  });

  it.each([['ts=abc;h1=00'], ['h1=deadbeef'], ['ts=1772445600'], ['ts=1772445600;h1=short'], ['garbage']])(
    'refuses without throwing when the header is %s',
    async (header) => {
      // Act
      const verification = await paddleWebhook.verify(inbound('{}', { 'paddle-signature': header }), { secret: SECRET }, new Date(1_772_445_600_000));
      // Assess
      expect(verification.ok).toBe(false);
      expect(JSON.stringify(verification)).not.toContain(SECRET);
    },
  );

  it('normalises transaction.payment_failed using the latest failed attempt, in minor units with lowercase currency', () => {
    // Act
    const events = paddleWebhook.normalise(inbound(JSON.stringify(PAYMENT_FAILED), {}));
    // Assess
    expect(events).toEqual([
      {
        psp: 'paddle',
        providerEventId: 'evt_01h8e1exw67n96j6n0h3k2qq5x',
        type: 'payment_failed',
        occurredAt: '2023-08-22T07:13:34.599095Z',
        payment: {
          providerPaymentId: 'txn_01h8dzxgkvdwemdhbpcapj2tbj',
          amount: 65215,
          currency: 'usd',
          declineCode: 'not_enough_balance',
          network: 'visa',
          invoiceId: 'inv_01h8e1ewfjy1ytkr6y8jv9p1ca',
          subscriptionId: 'sub_01h8e18e0vh5swdqwx8ht2cr5j',
        },
        customer: { providerCustomerId: 'ctm_01h8e18bxp9hby49dnm8ewf0m0' },
      },
    ]);
  });

  it('takes the failed attempt with the latest created_at whatever the order of payments', () => {
    // Prepare
    const body = { ...PAYMENT_FAILED, data: { ...PAYMENT_FAILED.data, payments: [...PAYMENT_FAILED.data.payments].reverse() } };
    // Act
    const [event] = paddleWebhook.normalise(inbound(JSON.stringify(body), {}));
    // Assess
    expect(event?.payment?.declineCode).toBe('not_enough_balance');
  });

  it('normalises transaction.completed into a recovered payment for the grand total', () => {
    // Prepare
    const body = {
      ...PAYMENT_FAILED,
      event_id: 'evt_done',
      event_type: 'transaction.completed',
      data: { ...PAYMENT_FAILED.data, status: 'completed', currency_code: 'JPY', details: { totals: { grand_total: '5000' } }, payments: [] },
    };
    // Act
    const [event] = paddleWebhook.normalise(inbound(JSON.stringify(body), {}));
    // Assess
    expect(event).toMatchObject({
      type: 'payment_succeeded',
      providerEventId: 'evt_done',
      payment: { providerPaymentId: 'txn_01h8dzxgkvdwemdhbpcapj2tbj', amount: 5000, currency: 'jpy' },
    });
    expect(event?.payment?.declineCode).toBeUndefined();
  });

  it('normalises an approved refund adjustment into charge_refunded', () => {
    // Prepare
    const body = {
      event_id: 'evt_refund',
      event_type: 'adjustment.updated',
      occurred_at: '2023-08-23T07:13:34Z',
      data: {
        id: 'adj_01h8',
        action: 'refund',
        status: 'approved',
        transaction_id: 'txn_01h8dzxgkvdwemdhbpcapj2tbj',
        customer_id: 'ctm_01h8',
        currency_code: 'EUR',
        totals: { total: '1999', currency_code: 'EUR' },
      },
    };
    // Act
    const [event] = paddleWebhook.normalise(inbound(JSON.stringify(body), {}));
    // Assess
    expect(event).toMatchObject({ type: 'charge_refunded', payment: { providerPaymentId: 'txn_01h8dzxgkvdwemdhbpcapj2tbj', amount: 1999, currency: 'eur' } });
  });

  it.each([['customer.updated'], ['transaction.past_due']])('ignores %s, an event the service does not use', (eventType) => {
    // Prepare
    const body = { ...PAYMENT_FAILED, event_type: eventType };
    // Act and assess
    expect(paddleWebhook.normalise(inbound(JSON.stringify(body), {}))).toEqual([]);
  });

  it.each([
    ['not JSON', 'ts=1'],
    ['an event without event_id', JSON.stringify({ ...PAYMENT_FAILED, event_id: undefined })],
    [
      'a major-unit amount',
      JSON.stringify({ ...PAYMENT_FAILED, data: { ...PAYMENT_FAILED.data, payments: [{ ...PAYMENT_FAILED.data.payments[0], amount: '652.15' }] } }),
    ],
    ['a garbled currency', JSON.stringify({ ...PAYMENT_FAILED, data: { ...PAYMENT_FAILED.data, currency_code: 'US DOLLARS' } })],
  ])('throws WebhookPayloadError when the verified body is %s', (_label, raw) => {
    // Act and assess
    expect(() => paddleWebhook.normalise(inbound(raw, {}))).toThrow(WebhookPayloadError);
  });
});

describe('paddle events of one failed renewal', () => {
  // A failed renewal: transaction.payment_failed for the attempt, then transaction.past_due for
  // the same transaction and subscription.past_due for its subscription.
  const event = (eventId: string, eventType: string, data: object): string =>
    JSON.stringify({ event_id: eventId, event_type: eventType, occurred_at: '2023-08-22T07:13:35.000000Z', notification_id: `ntf_${eventId}`, data });

  it('records the failure once, for the transaction of transaction.payment_failed, when transaction.past_due and subscription.past_due follow', () => {
    // Prepare
    const deliveries = [
      JSON.stringify(PAYMENT_FAILED),
      event('evt_01h8e1exw67n96j6n0h3k2qq5y', 'transaction.past_due', PAYMENT_FAILED.data),
      event('evt_01h8e1exw67n96j6n0h3k2qq5z', 'subscription.past_due', {
        id: 'sub_01h8e18e0vh5swdqwx8ht2cr5j',
        status: 'past_due',
        customer_id: 'ctm_01h8e18bxp9hby49dnm8ewf0m0',
        currency_code: 'USD',
        collection_mode: 'automatic',
      }),
    ];
    // Act
    const events = deliveries.flatMap((raw) => paddleWebhook.normalise(inbound(raw, {})));
    // Assess
    expect(events.map((normalised) => [normalised.type, normalised.payment?.providerPaymentId, normalised.payment?.amount])).toEqual([
      ['payment_failed', 'txn_01h8dzxgkvdwemdhbpcapj2tbj', 65215],
    ]);
  });

  it('names the same transaction for every failed attempt of it, so a retried renewal stays one payment', () => {
    // Prepare
    const secondAttempt = {
      ...PAYMENT_FAILED,
      event_id: 'evt_01h8f0000000000000000second',
      data: {
        ...PAYMENT_FAILED.data,
        payments: [
          { ...PAYMENT_FAILED.data.payments[0], created_at: '2023-08-25T07:13:26.000000Z', payment_attempt_id: '9a1b2c3d-0000-4000-8000-000000000003' },
          ...PAYMENT_FAILED.data.payments,
        ],
      },
    };
    // Act
    const events = [JSON.stringify(PAYMENT_FAILED), JSON.stringify(secondAttempt)].flatMap((raw) => paddleWebhook.normalise(inbound(raw, {})));
    // Assess
    expect(events.map((normalised) => normalised.payment?.providerPaymentId)).toEqual(['txn_01h8dzxgkvdwemdhbpcapj2tbj', 'txn_01h8dzxgkvdwemdhbpcapj2tbj']);
  });
});
