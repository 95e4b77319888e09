import Chargebee, { basicAuthValidator } from 'chargebee';
import { chargebeeWebhook } from '#webhooks/chargebee';
import type { InboundWebhook } from '#webhooks/types';
import { WebhookPayloadError } from '#webhooks/types';

// Chargebee signs nothing: its only scheme is HTTP Basic auth with the credentials set on the
// webhook. The SDK can only check credentials (basicAuthValidator inside a webhook handler), so
// the tests build the Authorization header themselves and ask both the SDK's handler and our
// module about the same request.
const USERNAME = 'recovery-hooks';
const PASSWORD = 'pa:ss-w0rd';
const SECRET = `${USERNAME}:${PASSWORD}`;
const NOW = new Date('2026-03-02T10:00:00Z');

// Shaped after Chargebee's payment_failed sample (API v2 event, content.transaction with
// error_code/error_text and the newer error_detail).
const PAYMENT_FAILED = {
  id: 'ev_16BPgETyVrQbiGhA',
  occurred_at: 1772445600,
  source: 'scheduled_job',
  object: 'event',
  api_version: 'v2',
  event_type: 'payment_failed',
  webhook_status: 'scheduled',
  content: {
    transaction: {
      id: 'txn_AzZhUGSPAkLskJQo',
      customer_id: 'AzZhUGSPAkLpyFQ1',
      subscription_id: 'AzZhUGSPAkLqYJQ9',
      gateway_account_id: 'gw_AzZhUGSPAkLkCEQ4',
      payment_source_id: 'pm_AzZhUGSPAkLuTJQe',
      payment_method: 'card',
      gateway: 'stripe',
      type: 'payment',
      date: 1772445598,
      amount: 4999,
      currency_code: 'EUR',
      status: 'failure',
      error_code: 'card_declined',
      error_text: 'Your card has insufficient funds.',
      error_detail: {
        decline_code: 'insufficient_funds',
        decline_message: 'Your card has insufficient funds.',
        network_error_code: '51',
        processor_advice_code: '01',
      },
      linked_invoices: [{ invoice_id: '1042', applied_amount: 4999, invoice_status: 'payment_due' }],
      deleted: false,
      object: 'transaction',
      masked_card_number: '************4242',
    },
    invoice: {
      id: '1042',
      customer_id: 'AzZhUGSPAkLpyFQ1',
      subscription_id: 'AzZhUGSPAkLqYJQ9',
      status: 'payment_due',
      amount_due: 4999,
      currency_code: 'EUR',
      object: 'invoice',
    },
    customer: { id: 'AzZhUGSPAkLpyFQ1', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', object: 'customer' },
    subscription: { id: 'AzZhUGSPAkLqYJQ9', customer_id: 'AzZhUGSPAkLpyFQ1', status: 'active', object: 'subscription' },
    card: { status: 'valid', card_type: 'visa', last4: '4242', object: 'card' },
  },
};

const basicAuth = (credentials: string): string => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

const inbound = (body: unknown, headers: Record<string, string>): InboundWebhook => ({
  rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  headers,
  url: 'https://hooks.example.com/chargebee/m_1',
});

/** What Chargebee's own webhook handler, with its Basic auth validator, makes of the request. */
async function sdkVerdict(request: InboundWebhook): Promise<'accepted' | 'refused'> {
  const handler = new Chargebee({ site: 'test-site', apiKey: 'test_unused' }).webhooks.createHandler({
    requestValidator: basicAuthValidator((username, password) => username === USERNAME && password === PASSWORD),
  });
  let verdict: 'accepted' | 'refused' = 'refused';
  handler.on('payment_failed', () => {
    verdict = 'accepted';
  });
  handler.on('error', () => {
    verdict = 'refused';
  });
  await handler.handle({ body: request.rawBody.toString('utf8'), headers: request.headers });
  return verdict;
}

describe('chargebee webhook', () => {
  it('accepts a delivery when the Basic credentials are the merchant secret, as the SDK does', async () => {
    // Prepare
    const request = inbound(PAYMENT_FAILED, { authorization: basicAuth(SECRET) });
    // Act
    const ours = await chargebeeWebhook.verify(request, { secret: SECRET }, NOW);
    const sdk = await sdkVerdict(request);
    // Assess
    expect(ours).toEqual({ ok: true });
    expect(sdk).toBe('accepted');
  });

  it('refuses tampered credentials when the password differs, as the SDK does', async () => {
    // Prepare
    const request = inbound(PAYMENT_FAILED, { authorization: basicAuth(`${USERNAME}:pa:ss-w0rD`) });
    // Act
    const ours = await chargebeeWebhook.verify(request, { secret: SECRET }, NOW);
    const sdk = await sdkVerdict(request);
    // Assess
    expect(ours).toEqual({ ok: false, reason: 'Basic credentials do not match' });
    expect(sdk).toBe('refused');
  });

  it('accepts a changed body when the credentials are right, because Basic auth covers no bytes of it', async () => {
    // Prepare: Chargebee signs nothing, so body integrity rests on TLS; the event id is deduplicated.
    const request = inbound({ ...PAYMENT_FAILED, id: 'ev_edited' }, { authorization: basicAuth(SECRET) });
    // Act
    const ours = await chargebeeWebhook.verify(request, { secret: SECRET }, NOW);
    const sdk = await sdkVerdict(request);
    // Assess
    expect(ours).toEqual({ ok: true });
    expect(sdk).toBe('accepted');
  });

  it('refuses a delivery when the merchant secret is different', async () => {
    // Prepare
    const request = inbound(PAYMENT_FAILED, { authorization: basicAuth(SECRET) });
    // Act
    const verification = await chargebeeWebhook.verify(request, { secret: 'recovery-hooks:another' }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it('refuses a delivery when the Authorization header is missing', async () => {
    // Act
    const verification = await chargebeeWebhook.verify(inbound(PAYMENT_FAILED, {}), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing Authorization header' });
  });

  it.each([
    ['a Bearer token', 'Bearer abc'],
    ['garbled base64', 'Basic %%%not-base64%%%'],
    ['a shorter credential', basicAuth('recovery-hooks:')],
  ])('refuses without throwing when the Authorization header is %s', async (_label, authorization) => {
    // Act
    const verification = await chargebeeWebhook.verify(inbound(PAYMENT_FAILED, { authorization }), { secret: SECRET }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
    expect(JSON.stringify(verification)).not.toContain(PASSWORD);
  });

  it('refuses every delivery when the stored secret is not username:password', async () => {
    // Act
    const verification = await chargebeeWebhook.verify(inbound(PAYMENT_FAILED, { authorization: basicAuth('nocolon') }), { secret: 'nocolon' }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'chargebee secret is not username:password' });
  });

  it('normalises payment_failed into a failed payment with minor units, lowercase currency, customer and decline code', () => {
    // Act
    const events = chargebeeWebhook.normalise(inbound(PAYMENT_FAILED, {}));
    // Assess
    expect(events).toEqual([
      {
        psp: 'chargebee',
        providerEventId: 'ev_16BPgETyVrQbiGhA',
        type: 'payment_failed',
        occurredAt: '2026-03-02T10:00:00.000Z',
        payment: {
          providerPaymentId: 'txn_AzZhUGSPAkLskJQo',
          amount: 4999,
          currency: 'eur',
          declineCode: 'insufficient_funds',
          networkCode: '51',
          adviceCode: '01',
          network: 'visa',
          invoiceId: '1042',
          subscriptionId: 'AzZhUGSPAkLqYJQ9',
        },
        customer: { email: 'ada@example.com', name: 'Ada Lovelace', providerCustomerId: 'AzZhUGSPAkLpyFQ1' },
      },
    ]);
  });

  it("reads the card's expiry from payment_failed and card_updated, and clears it for a payment source without a card", () => {
    // Prepare
    const card = { customer_id: 'cb_1', expiry_month: 9, expiry_year: 2029, object: 'card' };
    const event = (event_type: string, content: Record<string, unknown>) =>
      inbound({ id: `ev_${event_type}`, occurred_at: 1772445600, object: 'event', api_version: 'v2', event_type, content }, {});
    // Act
    const [failed] = chargebeeWebhook.normalise(event('payment_failed', { ...PAYMENT_FAILED.content, card }));
    const [updated] = chargebeeWebhook.normalise(event('card_updated', { customer: { id: 'cb_1' }, card: { ...card, expiry_month: '10' } }));
    const [source] = chargebeeWebhook.normalise(event('payment_source_added', { customer: { id: 'cb_1' }, payment_source: { type: 'direct_debit' } }));
    // Assess
    expect(failed?.cardExpiry).toEqual({ month: 9, year: 2029 });
    expect(updated).toMatchObject({ type: 'payment_method_updated', cardExpiry: { month: 10, year: 2029 } });
    expect(source).toMatchObject({ type: 'payment_method_updated', cardExpiry: null });
  });

  it('normalises subscription_renewal_reminder into an upcoming charge with its amount, due time and card', () => {
    // Prepare
    const reminder = (subscription: Record<string, unknown>) =>
      inbound(
        {
          id: 'ev_reminder',
          occurred_at: 1772445600,
          object: 'event',
          api_version: 'v2',
          event_type: 'subscription_renewal_reminder',
          content: {
            subscription: { id: 'sub_1', customer_id: 'cb_1', next_billing_at: 1773050400, currency_code: 'EUR', ...subscription },
            customer: { id: 'cb_1', email: 'ada@example.com' },
            card: { customer_id: 'cb_1', expiry_month: 3, expiry_year: 2026 },
          },
        },
        {},
      );
    // Act
    const [planAmount] = chargebeeWebhook.normalise(reminder({ plan_amount: 4999 }));
    const [items] = chargebeeWebhook.normalise(reminder({ subscription_items: [{ amount: 3000 }, { amount: 999 }] }));
    const none = chargebeeWebhook.normalise(reminder({ next_billing_at: undefined }));
    // Assess
    expect(planAmount).toEqual({
      psp: 'chargebee',
      providerEventId: 'ev_reminder',
      type: 'upcoming_charge',
      occurredAt: '2026-03-02T10:00:00.000Z',
      dueAt: '2026-03-09T10:00:00.000Z',
      payment: { amount: 4999, currency: 'eur', subscriptionId: 'sub_1' },
      customer: { email: 'ada@example.com', providerCustomerId: 'cb_1' },
      cardExpiry: { month: 3, year: 2026 },
    });
    expect(items?.payment?.amount).toBe(3999);
    expect(none).toEqual([]);
  });

  it("normalises card_expiry_reminder into the card's expiry for its customer", () => {
    // Prepare
    const reminder = (card: Record<string, unknown>) =>
      inbound(
        {
          id: 'ev_expiry',
          occurred_at: 1772445600,
          object: 'event',
          api_version: 'v2',
          event_type: 'card_expiry_reminder',
          content: { customer: { id: 'cb_1', email: 'ada@example.com' }, card },
        },
        {},
      );
    // Act
    const [event] = chargebeeWebhook.normalise(reminder({ customer_id: 'cb_1', expiry_month: 4, expiry_year: 2026 }));
    const none = chargebeeWebhook.normalise(reminder({ customer_id: 'cb_1' }));
    // Assess
    expect(event).toEqual({
      psp: 'chargebee',
      providerEventId: 'ev_expiry',
      type: 'card_expiry',
      occurredAt: '2026-03-02T10:00:00.000Z',
      customer: { email: 'ada@example.com', providerCustomerId: 'cb_1' },
      cardExpiry: { month: 4, year: 2026 },
    });
    expect(none).toEqual([]);
  });

  it('takes the transaction error_code as the decline code when the gateway gave no error_detail', () => {
    // Prepare
    const { error_detail: _detail, ...transaction } = PAYMENT_FAILED.content.transaction;
    const body = {
      ...PAYMENT_FAILED,
      content: { ...PAYMENT_FAILED.content, transaction: { ...transaction, error_code: '3001', currency_code: 'JPY', amount: 5000 } },
    };
    // Act
    const [event] = chargebeeWebhook.normalise(inbound(body, {}));
    // Assess
    expect(event?.payment).toMatchObject({ declineCode: '3001', amount: 5000, currency: 'jpy' });
    expect(event?.payment?.networkCode).toBeUndefined();
  });

  it('normalises payment_succeeded into a recovered payment', () => {
    // Prepare
    const transaction = {
      ...PAYMENT_FAILED.content.transaction,
      id: 'txn_ok',
      status: 'success',
      error_code: undefined,
      error_text: undefined,
      error_detail: undefined,
    };
    const body = { ...PAYMENT_FAILED, id: 'ev_ok', event_type: 'payment_succeeded', content: { ...PAYMENT_FAILED.content, transaction } };
    // Act
    const [event] = chargebeeWebhook.normalise(inbound(body, {}));
    // Assess
    expect(event).toMatchObject({
      type: 'payment_succeeded',
      providerEventId: 'ev_ok',
      payment: { providerPaymentId: 'txn_ok', amount: 4999, currency: 'eur' },
    });
    expect(event?.payment?.declineCode).toBeUndefined();
  });

  it('normalises payment_refunded into charge_refunded for the refunded payment', () => {
    // Prepare
    const refund = {
      ...PAYMENT_FAILED.content.transaction,
      id: 'txn_refund',
      type: 'refund',
      status: 'success',
      amount: 1500,
      refunded_txn_id: 'txn_AzZhUGSPAkLskJQo',
      error_code: undefined,
      error_detail: undefined,
    };
    const body = { ...PAYMENT_FAILED, id: 'ev_refund', event_type: 'payment_refunded', content: { ...PAYMENT_FAILED.content, transaction: refund } };
    // Act
    const [event] = chargebeeWebhook.normalise(inbound(body, {}));
    // Assess
    expect(event).toMatchObject({ type: 'charge_refunded', payment: { providerPaymentId: 'txn_AzZhUGSPAkLskJQo', amount: 1500, currency: 'eur' } });
  });

  it('normalises subscription_cancelled with the subscription and customer', () => {
    // Prepare
    const body = {
      id: 'ev_cancel',
      occurred_at: 1772445600,
      event_type: 'subscription_cancelled',
      content: { subscription: PAYMENT_FAILED.content.subscription, customer: PAYMENT_FAILED.content.customer },
    };
    // Act
    const events = chargebeeWebhook.normalise(inbound(body, {}));
    // Assess
    expect(events).toEqual([
      expect.objectContaining({
        type: 'subscription_cancelled',
        payment: { subscriptionId: 'AzZhUGSPAkLqYJQ9' },
        customer: expect.objectContaining({ providerCustomerId: 'AzZhUGSPAkLpyFQ1' }),
      }),
    ]);
  });

  it('ignores an event the service does not use', () => {
    // Prepare
    const body = { id: 'ev_cust', occurred_at: 1772445600, event_type: 'customer_changed', content: { customer: PAYMENT_FAILED.content.customer } };
    // Act and assess
    expect(chargebeeWebhook.normalise(inbound(body, {}))).toEqual([]);
  });

  it.each([
    ['not JSON', 'id=ev_1'],
    ['a payment_failed without its transaction', JSON.stringify({ id: 'ev_1', event_type: 'payment_failed', content: {} })],
    ['an event without an id', JSON.stringify({ event_type: 'payment_failed', content: PAYMENT_FAILED.content })],
    [
      'a fractional amount',
      JSON.stringify({ ...PAYMENT_FAILED, content: { ...PAYMENT_FAILED.content, transaction: { ...PAYMENT_FAILED.content.transaction, amount: 49.99 } } }),
    ],
  ])('throws WebhookPayloadError when the verified body is %s', (_label, body) => {
    // Act and assess
    expect(() => chargebeeWebhook.normalise(inbound(body, {}))).toThrow(WebhookPayloadError);
  });
});

describe('chargebee events of one failed renewal', () => {
  // A failed renewal: payment_failed for the transaction, with invoice_updated (the invoice stays
  // payment_due) and, on sites with dunning, dunning_updated; all carry the same invoice.
  const invoice = PAYMENT_FAILED.content.invoice;
  const event = (id: string, eventType: string, content: object): object => ({ ...PAYMENT_FAILED, id, event_type: eventType, content });

  it('records the failure once, for the transaction of payment_failed, whatever invoice and dunning events accompany it', () => {
    // Prepare
    const deliveries = [
      PAYMENT_FAILED,
      event('ev_16BPgETyVrQbiGhB', 'invoice_updated', { invoice: { ...invoice, dunning_status: 'in_progress' }, customer: PAYMENT_FAILED.content.customer }),
      event('ev_16BPgETyVrQbiGhC', 'invoice_generated', { invoice, customer: PAYMENT_FAILED.content.customer }),
      event('ev_16BPgETyVrQbiGhD', 'dunning_updated', {
        invoice: { ...invoice, dunning_status: 'in_progress' },
        transaction: PAYMENT_FAILED.content.transaction,
      }),
    ];
    // Act
    const events = deliveries.flatMap((body) => chargebeeWebhook.normalise(inbound(body, {})));
    // Assess
    expect(
      events.map((normalised) => [normalised.providerEventId, normalised.type, normalised.payment?.providerPaymentId, normalised.payment?.invoiceId]),
    ).toEqual([['ev_16BPgETyVrQbiGhA', 'payment_failed', 'txn_AzZhUGSPAkLskJQo', '1042']]);
  });
});
