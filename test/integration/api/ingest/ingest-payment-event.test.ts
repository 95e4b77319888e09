/**
 * POST /api/v1/ingest/payment-event over real HTTP and DynamoDB Local: each event type's effect,
 * decline classification, validation, scopes and dedupe. Effects are read back through the
 * payments and customers routes, and through the repository where the API shows no field for it.
 */
import type { PaymentRecord } from '#core/payments';
import { getPayment } from '#data/payment-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call, type JsonResponse } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { firstRetryPlanOf, retryPlanOf } from '#test/fixtures/payments';
import { newTenant, type Tenant } from '#test/fixtures/tenants';

interface IngestData {
  event_id: string;
  event_type: string;
  status: 'processed' | 'duplicate';
  recovery_initiated: boolean;
  payment_event_id: string | null;
  recovery_id: string | null;
  affected_payment_ids: string[];
}
interface Payment {
  id: string;
  status: string;
  amount: number;
  amount_cents: number;
  currency: string;
  psp: string;
  decline_category: string;
  decline_subcategory: string;
  provider_payment_id: string | null;
  customer_email: string;
  recovered_at: string | null;
  subscription_id: string | null;
  invoice_id: string | null;
  metadata: Record<string, unknown>;
}
interface TimelineEvent {
  type: string;
  detail: string;
  details: Record<string, unknown>;
}
interface ErrorBody {
  error: { code: string; param?: string };
}

const HIGH_LIMITS = { read_per_minute: 100_000, write_per_minute: 100_000 };
let seq = 0;
const unique = (prefix: string): string => `${prefix}_${(seq += 1)}_${Math.random().toString(36).slice(2, 8)}`;
const email = (): string => `${unique('buyer')}@example.com`;

describe('POST /api/v1/ingest/payment-event', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const ingest = (body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
    call<{ data: IngestData; meta: { merchant_id: string } }>(`${stack.api_url}/ingest/payment-event`, {
      method: 'POST',
      key: options.key ?? tenant.key,
      body,
      ...(options.headers ? { headers: options.headers } : {}),
    });
  const read = <T>(path: string, key = tenant.key) => call<{ data: T; pagination?: { total: number } }>(`${stack.api_url}${path}`, { key });
  const paymentOf = async (id: string): Promise<Payment> => (await read<Payment>(`/payments/${id}`)).body.data;
  const timelineOf = async (id: string): Promise<TimelineEvent[]> => (await read<{ events: TimelineEvent[] }>(`/payments/${id}/timeline`)).body.data.events;
  const customerOf = (address: string) =>
    read<{ failed_payments: number; recovered_payments: number; lifetime_value_cents: number }>(`/customers/by-email/${encodeURIComponent(address)}`);
  const failed = (customer: string, overrides: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
    event_type: 'payment_failed',
    amount_cents: 4999,
    currency: 'usd',
    customer_email: customer,
    decline_code: 'insufficient_funds',
    ...overrides,
    metadata: { psp: 'stripe', payment_id: unique('ch'), ...metadata },
  });
  const recorded = async (body: unknown): Promise<IngestData> => {
    const response = await ingest(body);
    expect(response.status).toBe(200);
    return response.body.data;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], HIGH_LIMITS);
    // Loads the three groups' handlers once here, so that no test's time includes it.
    await Promise.all([ingest({}), read('/payments/pe_none'), customerOf('nobody@example.com')]);
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  describe('payment_failed', () => {
    it("keeps the customer's time zone and times an insufficient-funds retry in the customer's local morning", async () => {
      // Prepare
      const customer = email();
      // Act
      const first = await recorded(failed(customer, {}, { customer_timezone: 'America/Los_Angeles' }));
      const second = await recorded(failed(customer, { decline_code: 'processing_error' }, { customer_timezone: 'Asia/Tokyo' }));
      const third = await recorded(failed(customer));
      // Assess: the newest zone given wins; a payment keeps the zone its customer had when it failed
      const shown = await read<{ timezone: string | null }>(`/customers/by-email/${encodeURIComponent(customer)}`);
      expect(shown.body.data.timezone).toBe('Asia/Tokyo');
      const [a, b, c] = await Promise.all([first, second, third].map((d) => getPayment(tenant.merchant.id, d.payment_event_id as string)));
      expect([a?.customer_timezone, b?.customer_timezone, c?.customer_timezone]).toEqual(['America/Los_Angeles', 'Asia/Tokyo', 'Asia/Tokyo']);
      const morning = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hour: 'numeric', hourCycle: 'h23' });
      expect(Number(morning.format(new Date(a?.next_retry_at as string)))).toBeGreaterThanOrEqual(7);
      expect(Number(morning.format(new Date(a?.next_retry_at as string)))).toBeLessThan(9);
      expect(a?.state_history.at(-1)?.reason).toContain('America/Los_Angeles');
    });

    it('records a soft_retry recovery, retrying with its first retry planned, when a stripe payment fails with insufficient_funds', async () => {
      // Prepare
      const customer = email();
      const body = failed(
        customer,
        {},
        { payment_id: 'ch_soft_1', customer_name: 'Ada Buyer', invoice_id: 'in_soft_1', subscription_id: 'sub_soft_1', order: 'A-1' },
      );
      // Act
      const response = await ingest(body);
      // Assess
      expect(response.status).toBe(200);
      const data = response.body.data;
      expect(data).toEqual({
        event_id: expect.stringMatching(/^evt_/),
        event_type: 'payment_failed',
        status: 'processed',
        recovery_initiated: true,
        payment_event_id: expect.stringMatching(/^pe_/),
        recovery_id: expect.stringMatching(/^rec_/),
        affected_payment_ids: [data.payment_event_id],
      });
      expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
      expect(await paymentOf(data.payment_event_id as string)).toMatchObject({
        status: 'retrying',
        amount: 4999,
        amount_cents: 4999,
        currency: 'usd',
        psp: 'stripe',
        decline_category: 'soft_retry',
        decline_subcategory: 'balance',
        provider_payment_id: 'ch_soft_1',
        customer_email: customer,
        invoice_id: 'in_soft_1',
        subscription_id: 'sub_soft_1',
        metadata: { order: 'A-1', payment_id: 'ch_soft_1' },
      });
      // The policy's first decision is written with the payment: pending, then retrying at once.
      const stored = (await getPayment(tenant.merchant.id, data.payment_event_id as string)) as PaymentRecord;
      const plan = await firstRetryPlanOf(stored);
      expect(plan).toMatchObject({ type: 'schedule_retry', reason: expect.stringMatching(/^Retry 1 of 8 at /) });
      const { at: planned, reason } = plan as { at: string; reason: string };
      expect(stored).toMatchObject({ next_retry_at: planned, retry_count: 0, awaiting_card_update: false, attempt: null });
      expect(stored.state_history).toEqual([
        { status: 'pending', at: stored.created_at, reason: 'Payment failed: decline code insufficient_funds (soft_retry/balance)' },
        { status: 'retrying', at: stored.created_at, reason },
      ]);
      const timeline = await timelineOf(data.payment_event_id as string);
      expect(timeline.map((event) => event.type)).toEqual(['payment_failed', 'retry_scheduled']);
      expect(timeline[1]?.details).toEqual({ retry_number: 1, scheduled_at: planned, reason });
      expect((await customerOf(customer)).body.data).toMatchObject({ failed_payments: 1, recovered_payments: 0 });
    });

    it('ends the payment as terminal without initiating a recovery when the network code is Visa category 1', async () => {
      // Prepare
      const body = failed(email(), { decline_code: 'do_not_honor' }, { network: 'visa', network_code: '04' });
      // Act
      const data = await recorded(body);
      // Assess
      expect(data).toMatchObject({ status: 'processed', recovery_initiated: false });
      expect(await paymentOf(data.payment_event_id as string)).toMatchObject({ status: 'terminal', decline_category: 'terminal' });
    });

    it("records psp ingest, a lowercase currency and A's amount when the sender names no known provider", async () => {
      // Prepare
      const body = {
        event_type: 'payment_failed',
        amount: 1200,
        currency: 'EUR',
        customer_email: email(),
        metadata: { psp: 'storefront', charge_id: unique('ch') },
      };
      // Act
      const data = await recorded(body);
      // Assess
      expect(await paymentOf(data.payment_event_id as string)).toMatchObject({
        psp: 'ingest',
        currency: 'eur',
        amount: 1200,
        decline_category: 'unknown',
        status: 'retrying',
      });
    });

    it('opens a hard decline awaiting a card update that payment_method_updated lifts, planning its first retry', async () => {
      // Prepare
      const customer = email();
      const hard = await recorded(failed(customer, { decline_code: 'expired_card' }));
      const soft = await recorded(failed(customer));
      const before = await getPayment(tenant.merchant.id, hard.payment_event_id as string);
      // Act
      const response = await ingest({ event_type: 'payment_method_updated', amount_cents: 0, currency: 'usd', customer_email: customer });
      // Assess
      expect(before).toMatchObject({ status: 'pending', decline_category: 'hard_customer', awaiting_card_update: true, next_retry_at: null });
      expect(before?.state_history).toHaveLength(1);
      expect(hard.recovery_initiated).toBe(true);
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ status: 'processed', recovery_initiated: false, affected_payment_ids: [hard.payment_event_id] });
      // The wait is over: the policy plans retry 1 of the new card in the same write.
      const after = (await getPayment(tenant.merchant.id, hard.payment_event_id as string)) as PaymentRecord;
      expect(after).toMatchObject({ status: 'retrying', awaiting_card_update: false, retry_count: 0 });
      expect(Date.parse(after.next_retry_at as string)).toBeGreaterThan(Date.parse(after.updated_at));
      const plan = await retryPlanOf({ ...after, status: 'pending', next_retry_at: null }, new Date(after.updated_at));
      expect(plan).toEqual({ type: 'schedule_retry', at: after.next_retry_at, reason: expect.stringMatching(/^Retry 1 of 8 at /) });
      expect(after.state_history).toEqual([
        ...(before?.state_history ?? []),
        { status: 'retrying', at: after.updated_at, reason: (plan as { reason: string }).reason },
      ]);
      expect((await timelineOf(hard.payment_event_id as string)).map((event) => event.type)).toEqual([
        'payment_failed',
        'payment_method_updated',
        'retry_scheduled',
      ]);
      expect((await timelineOf(soft.payment_event_id as string)).map((event) => event.type)).toEqual(['payment_failed', 'retry_scheduled']);
    });
  });

  describe('payment_succeeded', () => {
    it('recovers the recovery whose provider payment id the event names', async () => {
      // Prepare
      const customer = email();
      const first = await recorded(failed(customer, { amount_cents: 2500 }, { payment_id: 'ch_paid_1' }));
      // Act
      const response = await ingest({
        event_type: 'payment_succeeded',
        amount_cents: 2500,
        currency: 'usd',
        customer_email: customer,
        metadata: { payment_id: 'ch_paid_1' },
      });
      // Assess
      expect(response.body.data).toMatchObject({
        status: 'processed',
        recovery_initiated: false,
        payment_event_id: first.payment_event_id,
        recovery_id: first.recovery_id,
        affected_payment_ids: [first.payment_event_id],
      });
      const payment = await paymentOf(first.payment_event_id as string);
      expect(payment.status).toBe('recovered');
      expect(payment.recovered_at).not.toBeNull();
      expect((await timelineOf(payment.id)).map((event) => event.type)).toEqual(['payment_failed', 'retry_scheduled', 'retry_succeeded']);
      expect((await customerOf(customer)).body.data).toMatchObject({ failed_payments: 1, recovered_payments: 1, lifetime_value_cents: 2500 });
    });

    it('recovers the recovery of the invoice when the success carries a new charge id', async () => {
      // Prepare
      const customer = email();
      const first = await recorded(failed(customer, {}, { invoice_id: 'in_inv_1' }));
      // Act
      const response = await ingest({
        event_type: 'payment_succeeded',
        amount_cents: 4999,
        currency: 'usd',
        customer_email: customer,
        metadata: { charge_id: unique('ch_new'), invoice_id: 'in_inv_1' },
      });
      // Assess
      expect(response.body.data.affected_payment_ids).toEqual([first.payment_event_id]);
      expect((await paymentOf(first.payment_event_id as string)).status).toBe('recovered');
    });

    it('recovers the newest open recovery of the same amount and currency when no id matches', async () => {
      // Prepare
      const customer = email();
      const older = await recorded(failed(customer));
      const otherAmount = await recorded(failed(customer, { amount_cents: 2500 }));
      const otherCurrency = await recorded(failed(customer, { currency: 'eur' }));
      const newer = await recorded(failed(customer));
      // Act
      const response = await ingest({ event_type: 'payment_succeeded', amount_cents: 4999, currency: 'USD', customer_email: customer });
      // Assess
      expect(response.body.data.affected_payment_ids).toEqual([newer.payment_event_id]);
      expect((await paymentOf(newer.payment_event_id as string)).status).toBe('recovered');
      for (const untouched of [older, otherAmount, otherCurrency]) expect((await paymentOf(untouched.payment_event_id as string)).status).toBe('retrying');
      expect((await customerOf(customer)).body.data).toMatchObject({ recovered_payments: 1, lifetime_value_cents: 4999 });
    });

    it('changes nothing when no open recovery of the customer matches', async () => {
      // Prepare
      const customer = email();
      const first = await recorded(failed(customer));
      // Act
      const response = await ingest({
        event_type: 'payment_succeeded',
        amount_cents: 7777,
        currency: 'usd',
        customer_email: customer,
        metadata: { payment_id: unique('ch') },
      });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        status: 'processed',
        recovery_initiated: false,
        payment_event_id: null,
        recovery_id: null,
        affected_payment_ids: [],
      });
      expect((await paymentOf(first.payment_event_id as string)).status).toBe('retrying');
      expect((await customerOf(customer)).body.data).toMatchObject({ recovered_payments: 0, lifetime_value_cents: 0 });
    });
  });

  describe('subscription_cancelled', () => {
    it('ends only the open recoveries of the named subscription when a subscription is named', async () => {
      // Prepare
      const customer = email();
      const a1 = await recorded(failed(customer, {}, { subscription_id: 'sub_a' }));
      const a2 = await recorded(failed(customer, { amount_cents: 100 }, { subscription_id: 'sub_a' }));
      const b = await recorded(failed(customer, {}, { subscription_id: 'sub_b' }));
      // Act
      const response = await ingest({
        event_type: 'subscription_cancelled',
        amount_cents: 0,
        currency: 'usd',
        customer_email: customer,
        metadata: { subscription_id: 'sub_a' },
      });
      // Assess
      expect([...response.body.data.affected_payment_ids].sort()).toEqual([a1.payment_event_id, a2.payment_event_id].sort());
      expect((await paymentOf(a1.payment_event_id as string)).status).toBe('terminal');
      expect((await paymentOf(a2.payment_event_id as string)).status).toBe('terminal');
      expect((await paymentOf(b.payment_event_id as string)).status).toBe('retrying');
    });

    it('ends every open recovery of the customer and leaves recovered ones when no subscription is named', async () => {
      // Prepare
      const customer = email();
      const open = await recorded(failed(customer, {}, { subscription_id: 'sub_c' }));
      const paid = await recorded(failed(customer, { amount_cents: 300 }, { payment_id: 'ch_paid_c' }));
      await recorded({ event_type: 'payment_succeeded', amount_cents: 300, currency: 'usd', customer_email: customer, metadata: { payment_id: 'ch_paid_c' } });
      // Act
      const response = await ingest({ event_type: 'subscription_cancelled', amount_cents: 0, currency: 'usd', customer_email: customer });
      // Assess
      expect(response.body.data.affected_payment_ids).toEqual([open.payment_event_id]);
      expect((await paymentOf(open.payment_event_id as string)).status).toBe('terminal');
      expect((await paymentOf(paid.payment_event_id as string)).status).toBe('recovered');
    });
  });

  describe('charge_refunded', () => {
    it('adds the refund to the timeline of the payment with that provider payment id', async () => {
      // Prepare
      const customer = email();
      const first = await recorded(failed(customer, {}, { payment_id: 'ch_refund_1' }));
      // Act
      const response = await ingest({
        event_type: 'charge_refunded',
        amount_cents: 1000,
        currency: 'usd',
        customer_email: customer,
        metadata: { payment_id: 'ch_refund_1' },
      });
      // Assess
      expect(response.body.data).toMatchObject({
        status: 'processed',
        payment_event_id: first.payment_event_id,
        affected_payment_ids: [first.payment_event_id],
      });
      const timeline = await timelineOf(first.payment_event_id as string);
      expect(timeline.map((event) => event.type)).toEqual(['payment_failed', 'retry_scheduled', 'charge_refunded']);
      expect(timeline[2]?.details).toMatchObject({ amount: 1000, currency: 'usd', provider_payment_id: 'ch_refund_1' });
      expect((await paymentOf(first.payment_event_id as string)).status).toBe('retrying');
    });

    it('changes nothing when no payment of the customer has that id', async () => {
      // Prepare
      const customer = email();
      const first = await recorded(failed(customer));
      // Act
      const response = await ingest({
        event_type: 'charge_refunded',
        amount_cents: 1000,
        currency: 'usd',
        customer_email: customer,
        metadata: { payment_id: unique('ch_other'), invoice_id: 'in_none' },
      });
      // Assess
      expect(response.body.data).toMatchObject({ status: 'processed', payment_event_id: null, affected_payment_ids: [] });
      expect((await timelineOf(first.payment_event_id as string)).map((event) => event.type)).toEqual(['payment_failed', 'retry_scheduled']);
    });
  });

  describe('an unknown customer', () => {
    it.each(['payment_succeeded', 'subscription_cancelled', 'payment_method_updated', 'charge_refunded'])(
      'changes nothing and creates no customer when a %s event names an unknown customer',
      async (eventType) => {
        // Prepare
        const customer = email();
        // Act
        const response = await ingest({
          event_type: eventType,
          amount_cents: 500,
          currency: 'usd',
          customer_email: customer,
          metadata: { payment_id: unique('ch') },
        });
        // Assess
        expect(response.status).toBe(200);
        expect(response.body.data).toMatchObject({
          event_type: eventType,
          status: 'processed',
          recovery_initiated: false,
          payment_event_id: null,
          affected_payment_ids: [],
        });
        expect((await customerOf(customer)).status).toBe(404);
      },
    );
  });

  describe('validation', () => {
    const valid = () => ({ event_type: 'payment_failed', amount_cents: 100, currency: 'usd', customer_email: email() });

    it.each(['event_type', 'amount_cents', 'currency', 'customer_email'])('refuses with 400 naming %s when it is missing', async (field) => {
      // Prepare
      const body: Record<string, unknown> = valid();
      delete body[field];
      // Act
      const response = await ingest(body);
      // Assess
      expect(response.status).toBe(400);
      expect((response.body as unknown as ErrorBody).error).toMatchObject({ code: 'invalid_request', param: field });
    });

    it.each([
      ['currency', { currency: 'xyz' }],
      ['currency', { currency: 5 }],
      ['amount_cents', { amount_cents: -1 }],
      ['amount_cents', { amount_cents: 12.5 }],
      ['amount_cents', { amount_cents: '100' }],
      ['amount_cents', { amount_cents: 0 }],
      ['event_type', { event_type: 'payment_exploded' }],
      ['customer_email', { customer_email: 'not-an-email' }],
      ['metadata', { metadata: 'text' }],
      ['metadata.event_id', { metadata: { event_id: 5 } }],
      ['metadata.charge_id', { metadata: { payment_id: 'ch_1', charge_id: 'ch_2' } }],
      ['metadata.nested', { metadata: { nested: { a: { b: { c: 1 } } } } }],
      ['metadata.huge', { metadata: { huge: 1e200 } }],
    ])('refuses with 422 naming %s when its value is bad', async (param, change) => {
      // Act
      const response = await ingest({ ...valid(), ...change });
      // Assess
      expect(response.status).toBe(422);
      expect((response.body as unknown as ErrorBody).error).toMatchObject({ code: 'validation_error', param });
    });

    it.each([
      ['metadata.constructor', { constructor: 'x' }],
      ['metadata.constructor', { constructor: { prototype: {} } }],
      ['metadata.prototype', { prototype: 'x' }],
      ['metadata.order', { order: { constructor: { name: 'Set' } } }],
      ['metadata.deep', { deep: JSON.parse(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`) as unknown }],
      ['metadata', Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`k${index}`, 'v']))],
      [`metadata.${'k'.repeat(41)}`, { ['k'.repeat(41)]: 'v' }],
      ['metadata.note', { note: 'x'.repeat(501) }],
      ['metadata.payment_id', { payment_id: 'ch_1\u0000' }],
      ['metadata.provider_customer_id', { provider_customer_id: `cus_${'x'.repeat(300)}€` }],
      ['metadata.customer_timezone', { customer_timezone: '+02:00' }],
      ['metadata.customer_timezone', { customer_timezone: 'PST' }],
      ['metadata.customer_timezone', { customer_timezone: `America/${'X'.repeat(10_000)}` }],
    ])('refuses metadata outside its limits or with reserved keys with 422 naming %s, and records nothing', async (param, metadata) => {
      // Prepare
      const customer = email();
      // Act
      const response = await ingest({ ...valid(), customer_email: customer, metadata });
      // Assess
      expect(response.status).toBe(422);
      expect((response.body as unknown as ErrorBody).error).toMatchObject({ code: 'validation_error', param });
      expect((await read(`/customers/by-email/${encodeURIComponent(customer)}`)).status).toBe(404);
    });

    it.each([
      [
        'a __proto__ key',
        'metadata.__proto__',
        (customer: string) =>
          `{"event_type":"payment_failed","amount_cents":100,"currency":"usd","customer_email":"${customer}","metadata":{"__proto__":{"event_id":5,"payment_id":{"x":1}}}}`,
      ],
      [
        '5,000 levels of nesting',
        'metadata',
        (customer: string) =>
          `{"event_type":"payment_failed","amount_cents":100,"currency":"usd","customer_email":"${customer}","metadata":{"deep":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`,
      ],
      [
        '10,000 levels of arrays',
        'metadata',
        (customer: string) =>
          `{"event_type":"payment_failed","amount_cents":100,"currency":"usd","customer_email":"${customer}","metadata":{"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`,
      ],
    ])('refuses metadata with %s with 400 invalid_request naming %s, and records nothing', async (_name, param, rawBodyOf) => {
      // Prepare
      const customer = email();
      // Act
      const response = await call<ErrorBody>(`${stack.api_url}/ingest/payment-event`, {
        method: 'POST',
        key: tenant.key,
        rawBody: rawBodyOf(customer),
        headers: { 'Content-Type': 'application/json' },
      });
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_request', param });
      expect((await read(`/customers/by-email/${encodeURIComponent(customer)}`)).status).toBe(404);
    });

    it('records metadata at the limits as sent (50 keys of 40 characters, 500-character values, keys such as toString)', async () => {
      // Prepare
      const metadata = {
        ...Object.fromEntries(Array.from({ length: 47 }, (_, index) => [`${'k'.repeat(38)}${String(index).padStart(2, '0')}`, 'v'])),
        note: 'n'.repeat(500),
        toString: 'x',
        payment_id: unique('ch'),
      };
      // Act
      const response = await ingest({ ...valid(), metadata });
      // Assess
      expect(response.status).toBe(200);
      expect((await paymentOf(response.body.data.payment_event_id as string)).metadata).toEqual(metadata);
    });

    it('refuses with 422 naming amount when amount and amount_cents disagree', async () => {
      // Act
      const response = await ingest({ ...valid(), amount: 101 });
      // Assess
      expect(response.status).toBe(422);
      expect((response.body as unknown as ErrorBody).error).toMatchObject({ code: 'validation_error', param: 'amount' });
    });

    it('accepts amount and amount_cents when they agree', async () => {
      // Act
      const response = await ingest({ ...valid(), amount: 100 });
      // Assess
      expect(response.status).toBe(200);
      expect((await paymentOf(response.body.data.payment_event_id as string)).amount).toBe(100);
    });
  });

  describe('scopes', () => {
    it('refuses a read key with 403 insufficient_scope', async () => {
      // Prepare
      const reader = await newTenant(['read'], HIGH_LIMITS);
      // Act
      const response = await ingest(failed(email()), { key: reader.key });
      // Assess
      expect(response.status).toBe(403);
      expect((response.body as unknown as ErrorBody).error.code).toBe('insufficient_scope');
    });

    it('refuses a request without a key with 401 invalid_api_key', async () => {
      // Act
      const response = await call<ErrorBody>(`${stack.api_url}/ingest/payment-event`, { method: 'POST', body: failed(email()) });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('invalid_api_key');
    });

    it.each([['write'], ['admin']] as const)('accepts a %s key', async (scope) => {
      // Prepare
      const writer = await newTenant([scope], HIGH_LIMITS);
      // Act
      const response = await ingest(failed(email()), { key: writer.key });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data.status).toBe('processed');
      expect(response.body.meta.merchant_id).toBe(writer.merchant.id);
    });
  });

  describe('duplicates', () => {
    const delivered = async (responses: JsonResponse<{ data: IngestData }>[]) =>
      responses.map((response) => ({ status: response.status, data: response.body.data }));

    it('answers duplicate and records nothing more when the same event_id arrives twice', async () => {
      // Prepare
      const customer = email();
      const body = {
        event_type: 'payment_failed',
        amount_cents: 4999,
        currency: 'usd',
        customer_email: customer,
        decline_code: 'insufficient_funds',
        metadata: { event_id: unique('evt_sender') },
      };
      const first = await recorded(body);
      // Act
      const second = await ingest(body);
      // Assess
      expect(second.status).toBe(200);
      expect(second.body.data).toEqual({ ...first, status: 'duplicate' });
      expect((await customerOf(customer)).body.data.failed_payments).toBe(1);
      expect((await timelineOf(first.payment_event_id as string)).map((event) => event.type)).toEqual(['payment_failed', 'retry_scheduled']);
    });

    it('adds one refund entry when the same charge_refunded event arrives twice', async () => {
      // Prepare
      const customer = email();
      const first = await recorded(failed(customer, {}, { invoice_id: 'in_twice' }));
      const refund = {
        event_type: 'charge_refunded',
        amount_cents: 4999,
        currency: 'usd',
        customer_email: customer,
        metadata: { event_id: unique('evt_refund'), invoice_id: 'in_twice' },
      };
      // Act
      const [one, two] = await delivered([await ingest(refund), await ingest(refund)]);
      // Assess
      expect(one).toMatchObject({ status: 200, data: { status: 'processed' } });
      expect(two).toMatchObject({ status: 200, data: { status: 'duplicate', event_id: one?.data.event_id } });
      expect((await timelineOf(first.payment_event_id as string)).map((event) => event.type)).toEqual(['payment_failed', 'retry_scheduled', 'charge_refunded']);
    });

    it('adds one refund entry when 50 deliveries of one charge_refunded arrive at once', async () => {
      // Prepare
      const customer = email();
      const first = await recorded(failed(customer, {}, { payment_id: 'ch_refund_storm' }));
      const refund = {
        event_type: 'charge_refunded',
        amount_cents: 4999,
        currency: 'usd',
        customer_email: customer,
        metadata: { payment_id: 'ch_refund_storm' },
      };
      // Act
      const responses = await Promise.all(Array.from({ length: 50 }, () => ingest(refund)));
      // Assess
      expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 50 }, () => 200));
      expect(responses.filter((response) => response.body.data.status === 'processed')).toHaveLength(1);
      expect(new Set(responses.map((response) => response.body.data.event_id)).size).toBe(1);
      expect((await timelineOf(first.payment_event_id as string)).map((event) => event.type)).toEqual(['payment_failed', 'retry_scheduled', 'charge_refunded']);
    }, 60_000);

    it('answers duplicate when another event names a payment already recorded', async () => {
      // Prepare
      const customer = email();
      const first = await recorded(failed(customer, {}, { payment_id: 'ch_again', event_id: unique('evt_a') }));
      // Act
      const second = await ingest(failed(customer, {}, { payment_id: 'ch_again', event_id: unique('evt_b') }));
      // Assess
      expect(second.body.data).toMatchObject({
        status: 'duplicate',
        recovery_initiated: false,
        payment_event_id: first.payment_event_id,
        affected_payment_ids: [],
      });
      expect((await customerOf(customer)).body.data.failed_payments).toBe(1);
    });

    it('refuses a delivered event again after its customer is erased, recording nothing', async () => {
      // Prepare
      const customer = email();
      const body = failed(customer, {}, { event_id: unique('evt_erased') });
      const first = await recorded(body);
      const { id } = (await read<{ id: string }>(`/customers/by-email/${encodeURIComponent(customer)}`)).body.data;
      const erased = await call(`${stack.api_url}/customers/${id}`, { method: 'DELETE', key: tenant.key });
      // Act
      const again = await ingest(body);
      // Assess
      expect(erased.status).toBe(200);
      expect(again.body.data).toMatchObject({
        status: 'refused',
        recovery_initiated: false,
        payment_event_id: null,
        recovery_id: null,
        affected_payment_ids: [],
      });
      expect(first.payment_event_id).not.toBeNull();
      expect((await read(`/customers/by-email/${encodeURIComponent(customer)}`)).status).toBe(404);
    });

    it('replays the first response when the same Idempotency-Key is sent again', async () => {
      // Prepare
      const customer = email();
      const body = failed(customer);
      const headers = { 'Idempotency-Key': unique('idem') };
      const first = await ingest(body, { headers });
      // Act
      const second = await ingest(body, { headers });
      // Assess
      expect(second.status).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(second.text).toBe(first.text);
      expect((await customerOf(customer)).body.data.failed_payments).toBe(1);
    });

    it('records exactly one payment when 200 deliveries of one payment_failed arrive at once', async () => {
      // Prepare
      const own = await newTenant(['write'], HIGH_LIMITS);
      const body = failed(email(), {}, { payment_id: 'ch_storm' });
      // Act
      const storm = await Promise.all(Array.from({ length: 200 }, () => ingest(body, { key: own.key })));
      // A duplicate waits up to 5 s for the first delivery, then answers 409 "retry shortly" (as Stripe does for a
      // request still in flight); on a busy machine some of the 200 do. Sent again, they answer the first's result.
      const waited = storm.filter((response) => response.status === 409);
      const retried = await Promise.all(waited.map(() => ingest(body, { key: own.key })));
      const responses = [...storm.filter((response) => response.status !== 409), ...retried];
      // Assess
      expect(storm.filter((response) => response.status >= 500)).toEqual([]);
      for (const response of waited)
        expect((response.body as unknown as { error: unknown }).error).toMatchObject({
          code: 'state_conflict',
          message: expect.stringMatching(/being processed/),
        });
      expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 200 }, () => 200));
      expect(responses.filter((response) => response.body.data.status === 'processed')).toHaveLength(1);
      expect(new Set(responses.map((response) => response.body.data.payment_event_id)).size).toBe(1);
      await stack.runtime.stream.drain();
      const list = await read<Payment[]>('/payments', own.key);
      expect(list.body.pagination?.total).toBe(1);
      expect(list.body.data).toHaveLength(1);
    }, 120_000);
  });
});
