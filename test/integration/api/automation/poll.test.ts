/**
 * GET /api/v1/automation/poll/{eventType} and /automation/sample/{eventType} over HTTP. The poll
 * answers exactly the merchant's last 50 outbound events of the type (either of its names), newest
 * first, after more than 50 real state changes by the retry engine, compared with a direct listing
 * of the same merchant's outbox; another merchant sees none of them; unknown types are 422; an
 * erased customer's events leave the poll with them.
 */
import { listOutboundEvents, type OutboundEvent } from '#data/outbound-event-repository';
import { getPayment } from '#data/payment-repository';
import { handler as everyMinute } from '#jobs/every-minute';
import { eraseCustomer } from '#services/erase-customer';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPayment } from '#test/fixtures/payments';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

// 18 payments retried 3 times each by the every-minute job: seconds on a busy 2-core machine.
jest.setTimeout(120_000);

interface Event {
  id: string;
  type: string;
  types: string[];
  created_at: string;
  merchant_id: string;
  data: { object: Record<string, unknown> };
}
interface Body<T> {
  data: T;
  error?: { code: string; param?: string };
}

const T0 = new Date('2027-02-03T10:00:00.000Z');
const PAYMENTS = 18;

/** Runs the every-minute job as EventBridge Scheduler would at `at` (every due retry of the run). */
async function runJobAt(at: Date): Promise<void> {
  const report = await everyMinute({
    schedule: 'every-minute',
    scheduled_time: at.toISOString(),
    execution_id: `test-poll-${at.getTime()}`,
    attempt_number: 1,
    schedule_arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/every-minute',
  });
  expect(report.tasks.find((t) => t.name === 'execute-due-retries')?.status).toBe('ok');
}

/** Newest first by id (time-ordered), as the poll answers. */
const newestFirst = (events: readonly OutboundEvent[]): OutboundEvent[] => [...events].sort((a, b) => (a.id < b.id ? 1 : -1));

describe('/api/v1/automation/poll and /sample', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let stranger: Tenant;
  let outbox: OutboundEvent[];
  let customerOf: Map<string, string>;

  const poll = (who: Tenant, type: string) => call<Body<Event[]>>(`${stack.api_url}/automation/poll/${encodeURIComponent(type)}`, { key: who.key });
  const sample = (who: Tenant, type: string) => call<Body<Event>>(`${stack.api_url}/automation/sample/${encodeURIComponent(type)}`, { key: who.key });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['read'], UNLIMITED);
    stranger = await newTenant(['read'], UNLIMITED);
    // Real state changes: every payment declines each of its 3 retries, then ends terminal.
    const seeded = [];
    for (let i = 0; i < PAYMENTS; i += 1) {
      seeded.push(
        await seedPayment(
          tenant.merchant.id,
          { declineCode: 'sandbox_always_decline', declineCategory: 'unknown', declineSubcategory: 'unmapped', maxRetries: 3 },
          T0,
        ),
      );
    }
    for (let run = 0; run < 10; run += 1) {
      const current = await Promise.all(seeded.map((p) => getPayment(tenant.merchant.id, p.id)));
      const due = current.filter((p) => p?.status === 'retrying' && p.next_retry_at !== null).map((p) => Date.parse(p?.next_retry_at as string));
      if (due.length === 0) break;
      await runJobAt(new Date(Math.max(...due)));
    }
    outbox = await listOutboundEvents(tenant.merchant.id, 1000);
    customerOf = new Map(seeded.map((p) => [p.id, p.customer_id]));
  }, 120_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('answers exactly the last 50 retry attempts, newest first, out of more than 50', async () => {
    // Prepare
    const attempts = outbox.filter((e) => e.types.includes('recovery.retry_attempted'));
    // Act
    const response = await poll(tenant, 'recovery.retry_attempted');
    // Assess
    expect(attempts).toHaveLength(PAYMENTS * 3);
    expect(response.status).toBe(200);
    expect(response.body.data.map((e) => e.id)).toEqual(
      newestFirst(attempts)
        .slice(0, 50)
        .map((e) => e.id),
    );
    expect(response.body.data[0]).toMatchObject({
      type: 'recovery.retry_attempted',
      types: ['recovery.retry_attempted'],
      merchant_id: tenant.merchant.id,
      data: { object: { outcome: 'declined' } },
    });
  });

  it('answers the same events under either name of a fact, each typed with the asked name', async () => {
    // Prepare
    const terminal = newestFirst(outbox.filter((e) => e.types.includes('payment.terminal')));
    // Act
    const byB = await poll(tenant, 'payment.terminal');
    const byA = await poll(tenant, 'recovery.failed');
    // Assess
    expect(terminal).toHaveLength(PAYMENTS);
    expect(byB.body.data.map((e) => e.id)).toEqual(terminal.map((e) => e.id));
    expect(byA.body.data.map((e) => e.id)).toEqual(terminal.map((e) => e.id));
    expect(new Set(byB.body.data.map((e) => e.type))).toEqual(new Set(['payment.terminal']));
    expect(new Set(byA.body.data.map((e) => e.type))).toEqual(new Set(['recovery.failed']));
    expect(byA.body.data[0]?.types).toEqual(['payment.terminal', 'recovery.failed']);
  });

  it("answers an empty list for a type with no events, and none of this merchant's events to another", async () => {
    // Act
    const none = await poll(tenant, 'recovery.succeeded');
    const strangers = await poll(stranger, 'recovery.retry_attempted');
    // Assess
    expect(outbox.filter((e) => e.types.includes('recovery.succeeded'))).toEqual([]);
    expect([none.status, none.body.data]).toEqual([200, []]);
    expect([strangers.status, strangers.body.data]).toEqual([200, []]);
  });

  it('refuses an unknown type with 422 param eventType', async () => {
    // Act
    const polled = await poll(tenant, 'payment.exploded');
    const sampled = await sample(tenant, 'payment.exploded');
    // Assess
    expect([polled.status, polled.body.error]).toEqual([422, expect.objectContaining({ code: 'validation_error', param: 'eventType' })]);
    expect([sampled.status, sampled.body.error]).toEqual([422, expect.objectContaining({ code: 'validation_error', param: 'eventType' })]);
  });

  it('answers a sample payload of the type in either name, for the caller', async () => {
    // Act
    const byB = await sample(tenant, 'payment.recovered');
    const byA = await sample(tenant, 'recovery.succeeded');
    // Assess
    expect(byB.status).toBe(200);
    expect(byB.body.data).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'payment.recovered',
      created_at: expect.any(String),
      merchant_id: tenant.merchant.id,
      data: { object: expect.objectContaining({ payment_id: expect.stringMatching(/^pe_/), amount: 4900, currency: 'usd' }) },
    });
    expect(byA.body.data.type).toBe('recovery.succeeded');
    expect(byA.body.data.data).toEqual(byB.body.data.data);
  });

  // Last: it erases a customer of the shared data.
  it("answers none of an erased customer's events: erasure removes them from the poll too", async () => {
    // Prepare
    const erased = customerOf.values().next().value as string;
    // Act
    await eraseCustomer(tenant.merchant.id, erased);
    const response = await poll(tenant, 'recovery.retry_attempted');
    const remaining = (await listOutboundEvents(tenant.merchant.id, 1000)).filter((e) => e.types.includes('recovery.retry_attempted'));
    // Assess
    const erasedAttempts = outbox.filter((e) => e.types.includes('recovery.retry_attempted') && customerOf.get(String(e.data.object.payment_id)) === erased);
    expect(erasedAttempts.length).toBeGreaterThan(0);
    expect(remaining).toHaveLength(PAYMENTS * 3 - erasedAttempts.length);
    expect(response.body.data.map((e) => e.id)).toEqual(
      newestFirst(remaining)
        .slice(0, 50)
        .map((e) => e.id),
    );
    expect(response.body.data.filter((e) => customerOf.get(String(e.data.object.payment_id)) === erased)).toEqual([]);
  });
});
