import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { StateConflictError } from '#core/errors';
import { isQuietAt } from '#core/quiet-hours';
import type { PaymentRecord } from '#core/payments';
import { getCardLedger } from '#data/card-ledger-repository';
import { documentClient } from '#data/client';
import { ingestPaymentEvent } from '#services/ingest-payment-event';
import { dueRetryKeys, paymentKeys } from '#data/keys';
import { listOutboundEvents } from '#data/outbound-event-repository';
import { getPayment } from '#data/payment-repository';
import { sandboxChargesOf } from '#data/sandbox-charge-repository';
import { putQuietHours } from '#data/settings-repository';
import { executeDueRetries } from '#jobs/execute-due-retries';
import { handler as everyMinute } from '#jobs/every-minute';
import { requestRetry } from '#services/request-retry';
import { env } from '#shared/env';
import { PROCESSING_ERROR, retryPlanOf, seedPayment } from '#test/fixtures/payments';
import { scheduledJobEventAt } from '#test/fixtures/scheduled-jobs';

/**
 * The retry engine end to end on DynamoDB Local with the sandbox gateway, the clock driven by the
 * test: every run is the every-minute job (or its task) at a scheduled time the test picks.
 */
// Each test runs the job several times, each run a few DynamoDB calls per payment: seconds on a busy 2-core machine.
jest.setTimeout(60_000);

const merchant = (): string => `merch_eng${Math.random().toString(36).slice(2, 10)}`;
const T0 = new Date('2026-12-07T15:00:00.000Z');
const later = (at: Date, ms: number): Date => new Date(at.getTime() + ms);
const HOUR = 3_600_000;

/** Runs the every-minute job (its Lambda handler) as EventBridge Scheduler would at `at`. */
async function runJobAt(at: Date) {
  const report = await everyMinute(scheduledJobEventAt('every-minute', at));
  const task = report.tasks.find((t) => t.name === 'execute-due-retries');
  expect(task?.status).toBe('ok');
  return task?.summary as Record<string, number>;
}

/** The payment's entry in the due index (GSI4SK), undefined when it has none. */
async function dueIndexEntryOf(merchantId: string, payment: PaymentRecord): Promise<string | undefined> {
  const item = (
    await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: paymentKeys.payment(merchantId, payment.id.slice(3)), ConsistentRead: true }))
  ).Item;
  return item?.GSI4SK as string | undefined;
}

async function current(merchantId: string, payment: PaymentRecord): Promise<PaymentRecord> {
  const found = await getPayment(merchantId, payment.id);
  if (found === undefined) throw new Error('payment vanished');
  return found;
}

/** Runs the job at each next_retry_at of the payment until it is no longer retrying (at most `max` runs). */
async function runUntilSettled(merchantId: string, payment: PaymentRecord, max = 10): Promise<PaymentRecord> {
  let now = payment;
  for (let run = 0; run < max && now.status === 'retrying' && now.next_retry_at !== null; run += 1) {
    await runJobAt(new Date(now.next_retry_at));
    now = await current(merchantId, now);
  }
  return now;
}

const failure = (merchantId: string, overrides: Record<string, unknown> = {}) =>
  ingestPaymentEvent(
    merchantId,
    {
      type: 'payment_failed',
      amount: 2500,
      currency: 'usd',
      customerEmail: 'ana@example.com',
      declineCode: 'insufficient_funds',
      eventId: `evt_${Math.random().toString(36).slice(2)}`,
      psp: 'stripe',
      providerPaymentId: `pi_${Math.random().toString(36).slice(2)}`,
      metadata: {},
      ...overrides,
    },
    T0,
  );

describe('retry engine', () => {
  it('schedules a soft decline when it is recorded, then the job declines attempt 1 and recovers at attempt 2', async () => {
    // Prepare
    const m = merchant();
    const { payment_event_id: id } = await failure(m);
    const recorded = await current(m, { id } as PaymentRecord);
    // Assess: scheduled at once, by the policy, with its reason
    expect(recorded.status).toBe('retrying');
    expect(Date.parse(recorded.next_retry_at as string)).toBeGreaterThan(T0.getTime());
    expect(recorded.state_history.map((h) => h.status)).toEqual(['pending', 'retrying']);
    expect(recorded.state_history[1]?.reason).toMatch(/^Retry 1 of 8 at .*scored/);
    // Act: a run before it is due does nothing
    await runJobAt(later(T0, 60_000));
    const early = await current(m, recorded);
    // Act: runs at each due time
    await runJobAt(new Date(recorded.next_retry_at as string));
    const afterFirst = await current(m, recorded);
    const settled = await runUntilSettled(m, afterFirst);
    // Assess
    expect(early).toEqual(recorded);
    expect(afterFirst).toMatchObject({ status: 'retrying', retry_count: 1, decline_code: 'insufficient_funds', attempt: null });
    expect(Date.parse(afterFirst.next_retry_at as string)).toBeGreaterThan(Date.parse(recorded.next_retry_at as string));
    expect(settled).toMatchObject({ status: 'recovered', retry_count: 2, next_retry_at: null, attempt: null });
    expect(settled.recovered_at).not.toBeNull();
    expect((await sandboxChargesOf(m, recorded.id)).map((c) => [c.idempotency_key, c.outcome?.status])).toEqual([
      [`retry-${recorded.id}-1`, 'declined'],
      [`retry-${recorded.id}-2`, 'succeeded'],
    ]);
    // Events of one write share its instant, so they are compared as a sorted list.
    const events = (await listOutboundEvents(m)).map((e) => e.types.join('+')).sort();
    expect(events).toEqual([
      'payment.failed',
      'payment.recovered+recovery.succeeded',
      'recovery.retry_attempted',
      'recovery.retry_attempted',
      'recovery.retry_scheduled',
      'recovery.retry_scheduled',
    ]);
    // One retry scheduled with the failure (no attempt behind it), one after attempt 1's decline.
    const scheduled = (await listOutboundEvents(m)).filter((e) => e.types.includes('recovery.retry_scheduled')).map((e) => e.data.object);
    expect(scheduled).toEqual([
      { payment_id: recorded.id, recovery_id: recorded.recovery_id, retry_number: 1, gateway: null, scheduled_at: recorded.next_retry_at },
      { payment_id: recorded.id, recovery_id: recorded.recovery_id, retry_number: 2, gateway: 'sandbox', scheduled_at: afterFirst.next_retry_at },
    ]);
    // The recovered payment has left the due index.
    const item = (await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: paymentKeys.payment(m, recorded.id.slice(3)) }))).Item;
    expect(item?.GSI4PK).toBeUndefined();
  });

  it('never retries a hard decline until the card is updated, then retries the new card', async () => {
    // Prepare
    const m = merchant();
    const { payment_event_id: id } = await failure(m, { declineCode: 'expired_card' });
    // Act: a month of job runs
    for (const days of [1, 7, 30]) await runJobAt(later(T0, days * 24 * HOUR));
    const waiting = await current(m, { id } as PaymentRecord);
    const chargesBeforeUpdate = await sandboxChargesOf(m, waiting.id);
    await ingestPaymentEvent(
      m,
      {
        type: 'payment_method_updated',
        amount: 0,
        currency: 'usd',
        customerEmail: 'ana@example.com',
        declineCode: null,
        eventId: 'evt_card',
        psp: 'stripe',
        metadata: {},
      },
      later(T0, 31 * 24 * HOUR),
    );
    const updated = await current(m, waiting);
    const settled = await runUntilSettled(m, updated);
    // Assess
    expect(waiting).toMatchObject({ status: 'pending', awaiting_card_update: true, next_retry_at: null, retry_count: 0 });
    expect(chargesBeforeUpdate).toHaveLength(0);
    expect(updated.status).toBe('retrying');
    expect(updated.card_identity).not.toBe(waiting.card_identity);
    expect(settled).toMatchObject({ status: 'recovered', retry_count: 1 });
  });

  it('ends terminal at max_retries, each attempt with its own idempotency key', async () => {
    // Prepare
    const m = merchant();
    const seeded = await seedPayment(
      m,
      { declineCode: 'sandbox_always_decline', declineCategory: 'unknown', declineSubcategory: 'unmapped', maxRetries: 3 },
      T0,
    );
    // Act
    const settled = await runUntilSettled(m, seeded);
    // Assess
    expect(settled).toMatchObject({ status: 'terminal', retry_count: 3, next_retry_at: null });
    expect(settled.state_history.at(-1)?.reason).toMatch(/all 3 retries were used/);
    expect((await sandboxChargesOf(m, seeded.id)).map((c) => c.idempotency_key)).toEqual([1, 2, 3].map((n) => `retry-${seeded.id}-${n}`));
    expect((await listOutboundEvents(m)).filter((e) => e.types.includes('payment.terminal')).map((e) => e.types)).toEqual([
      ['payment.terminal', 'recovery.failed'],
    ]);
  });

  it('ends at once and blocks the card on a do-not-retry answer, so another payment on that card waits for a new card', async () => {
    // Prepare
    const m = merchant();
    const first = await seedPayment(
      m,
      { declineCode: 'sandbox_do_not_retry', declineCategory: 'unknown', declineSubcategory: 'unmapped', customer: { email: 'same@example.com' } },
      T0,
    );
    // Act
    const blockedAt = new Date(first.next_retry_at as string);
    await runJobAt(blockedAt);
    const ended = await current(m, first);
    const second = await seedPayment(
      m,
      { declineCode: 'processing_error', declineCategory: 'soft_retry', declineSubcategory: 'processing_error', customer: { email: 'same@example.com' } },
      blockedAt,
    );
    await runJobAt(new Date(second.next_retry_at as string));
    const other = await current(m, second);
    // Assess
    expect(ended).toMatchObject({ status: 'terminal', retry_count: 1, advice_code: '03', card_network: 'mastercard' });
    expect((await getCardLedger(m, first.card_identity)).ledger.blocked_until).not.toBeNull();
    expect(other).toMatchObject({ status: 'pending', awaiting_card_update: true, retry_count: 0 });
    expect(other.state_history.at(-1)?.reason).toMatch(/card blocked until/);
    expect(await sandboxChargesOf(m, second.id)).toHaveLength(0);
  });

  it('keeps retries out of quiet hours that cross midnight in the merchant time zone', async () => {
    // Prepare: 22:00-07:00 in New York; the failure is at 22:30 New York (03:30 UTC), a processing error retried within hours
    const m = merchant();
    const quiet = { startHour: 22, endHour: 7, timezone: 'America/New_York', enabled: true };
    await putQuietHours(m, quiet);
    const failedAt = new Date('2026-12-08T03:30:00.000Z');
    // Act
    const payment = await seedPayment(m, { declineCode: 'processing_error', declineCategory: 'soft_retry', declineSubcategory: 'processing_error' }, failedAt);
    // Assess: due at 07:00 New York (12:00 UTC) at the earliest, never inside the window
    expect(payment.status).toBe('retrying');
    const due = new Date(payment.next_retry_at as string);
    expect(isQuietAt(quiet, due)).toBe(false);
    expect(due.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-12-08T12:00:00.000Z'));
    expect(payment.state_history.at(-1)?.reason).toMatch(/quiet hours \(22:00-7:00 America\/New_York\)/);
    // Act: a run inside the window (e.g. after the merchant moved the window) reschedules instead of attempting
    await putQuietHours(m, { ...quiet, startHour: 6, endHour: 9 });
    await runJobAt(due);
    const moved = await current(m, payment);
    expect(moved.retry_count).toBe(0);
    expect(moved.next_retry_at).toBe('2026-12-08T14:00:00.000Z');
    expect(await sandboxChargesOf(m, payment.id)).toHaveLength(0);
  });

  it("holds Mastercard's 10 attempts per card in 24 hours across several payments on one card", async () => {
    // Prepare: 12 payments of one customer on one Mastercard, all due by the run
    const m = merchant();
    const payments: PaymentRecord[] = [];
    for (let i = 0; i < 12; i += 1) {
      payments.push(
        await seedPayment(
          m,
          {
            declineCode: 'sandbox_always_decline',
            declineCategory: 'unknown',
            declineSubcategory: 'unmapped',
            cardNetwork: 'mastercard',
            customer: { email: 'card@example.com' },
            amount: 1000 + i,
          },
          T0,
        ),
      );
    }
    const runAt = new Date(Math.max(...payments.map((p) => Date.parse(p.next_retry_at as string))));
    // Act
    await runJobAt(runAt);
    const after = await Promise.all(payments.map((p) => current(m, p)));
    // Assess
    expect(after.filter((p) => p.retry_count === 1 && p.decline_code === 'sandbox_always_decline')).toHaveLength(10);
    expect((await getCardLedger(m, payments[0]?.card_identity as string)).ledger.attempts).toHaveLength(10);
    const held = after.filter((p) => p.retry_count === 0);
    expect(held).toHaveLength(2);
    for (const p of held) {
      expect(Date.parse(p.next_retry_at as string)).toBeGreaterThan(runAt.getTime() + 24 * HOUR - 60_000);
      expect(p.state_history.at(-1)?.reason).toMatch(/Mastercard: 10 attempts per card in 24 hours/);
    }
  });

  it('attempts each payment once when two job runs overlap', async () => {
    // Prepare
    const m = merchant();
    const payments = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        seedPayment(
          m,
          { declineCode: 'processing_error', declineCategory: 'soft_retry', declineSubcategory: 'processing_error', customer: { email: `p${i}@example.com` } },
          T0,
        ),
      ),
    );
    const runAt = new Date(Math.max(...payments.map((p) => Date.parse(p.next_retry_at as string))));
    // Act
    await Promise.all([executeDueRetries({ now: runAt, executionId: 'a' }), executeDueRetries({ now: runAt, executionId: 'b' })]);
    // Assess
    for (const p of payments) {
      const charges = await sandboxChargesOf(m, p.id);
      expect(charges.map((c) => c.calls)).toEqual([1]);
      expect((await current(m, p)).status).toBe('recovered');
    }
  });

  it('re-sends an attempt after a crash between the gateway call and its recording, with the same key, charging once', async () => {
    // Prepare
    const m = merchant();
    const payment = await seedPayment(m, { declineCode: 'processing_error', declineCategory: 'soft_retry', declineSubcategory: 'processing_error' }, T0);
    const dueAt = new Date(payment.next_retry_at as string);
    // Act: the run crashes after the gateway charged
    const crashed = await executeDueRetries(
      { now: dueAt, executionId: 'crash' },
      {
        afterGatewayCall: () => {
          throw new Error('injected crash');
        },
      },
    );
    const inFlight = await current(m, payment);
    await executeDueRetries({ now: later(dueAt, 60_000), executionId: 'within-lease' });
    const stillInFlight = await current(m, payment);
    const callsWithinLease = (await sandboxChargesOf(m, payment.id)).map((c) => c.calls);
    await executeDueRetries({ now: later(dueAt, 6 * 60_000), executionId: 'after-lease' });
    const settled = await current(m, payment);
    // Assess
    expect(crashed.failed).toBeGreaterThanOrEqual(1);
    expect(inFlight).toMatchObject({ status: 'retrying', retry_count: 0, attempt: { number: 1, idempotency_key: `retry-${payment.id}-1` } });
    expect(inFlight.next_retry_at).toBe(inFlight.attempt?.lease_until);
    expect(stillInFlight).toEqual(inFlight);
    expect(callsWithinLease).toEqual([1]);
    expect(settled).toMatchObject({ status: 'recovered', retry_count: 1, attempt: null });
    const charges = await sandboxChargesOf(m, payment.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ idempotency_key: `retry-${payment.id}-1`, calls: 2, outcome: { status: 'succeeded' } });
  });

  it('retries a gateway error later with the same key, not counting it as an attempt', async () => {
    // Prepare
    const m = merchant();
    const payment = await seedPayment(m, { declineCode: 'sandbox_gateway_error', declineCategory: 'unknown', declineSubcategory: 'unmapped' }, T0);
    const dueAt = new Date(payment.next_retry_at as string);
    // Act
    await runJobAt(dueAt);
    const afterError = await current(m, payment);
    await runJobAt(new Date(afterError.next_retry_at as string));
    // Assess
    expect(afterError).toMatchObject({ status: 'retrying', retry_count: 0, gateway_errors: 1, attempt: null });
    expect(afterError.next_retry_at).toBe(later(dueAt, 5 * 60_000).toISOString());
    expect(await current(m, payment)).toMatchObject({ status: 'recovered', retry_count: 1 });
    expect((await sandboxChargesOf(m, payment.id)).map((c) => [c.idempotency_key, c.calls])).toEqual([[`retry-${payment.id}-1`, 2]]);
  });

  it("blocks the card when a failure arrives with a do-not-retry answer, so the customer's other payment on it is not retried", async () => {
    // Prepare: an open recovery of the customer, then a failure on the same card answered Mastercard MAC 21
    const m = merchant();
    const { payment_event_id: openId } = await failure(m);
    const open = await current(m, { id: openId } as PaymentRecord);
    // Act
    const { payment_event_id: endedId } = await failure(m, { declineCode: 'do_not_honor', network: 'mastercard', adviceCode: '21' });
    const ended = await current(m, { id: endedId } as PaymentRecord);
    await runJobAt(new Date(open.next_retry_at as string));
    const other = await current(m, open);
    // Assess
    expect(ended).toMatchObject({ status: 'terminal', card_identity: open.card_identity });
    expect((await getCardLedger(m, open.card_identity)).ledger).toMatchObject({
      blocked_until: expect.any(String),
      block_reason: expect.stringMatching(/do-not-retry/),
    });
    expect(other).toMatchObject({ status: 'pending', awaiting_card_update: true, retry_count: 0 });
    expect(await sandboxChargesOf(m, open.id)).toHaveLength(0);
  });

  it('ends a recovery when a sibling event of the same charge carries a do-not-retry answer the first lacked', async () => {
    // Prepare: the invoice event first (no decline detail), then the PaymentIntent event of the same charge
    const m = merchant();
    const { payment_event_id: id } = await failure(m, { providerPaymentId: 'pi_sibling', declineCode: null });
    const opened = await current(m, { id } as PaymentRecord);
    // Act
    const sibling = await failure(m, { providerPaymentId: 'pi_sibling', declineCode: 'do_not_honor', network: 'mastercard', adviceCode: '21' });
    const after = await current(m, opened);
    // Assess: the code is recorded, and the policy, deciding again for it, ends the recovery
    expect(opened.status).toBe('retrying');
    expect(sibling).toMatchObject({ status: 'processed', affected_payment_ids: [opened.id], recovery_initiated: false });
    expect(after).toMatchObject({ status: 'terminal', next_retry_at: null, decline_code: 'do_not_honor', advice_code: '21', card_network: 'mastercard' });
    expect(after.state_history.at(-1)?.reason).toMatch(/^Not retried: .*21/);
    expect(await dueIndexEntryOf(m, after)).toBeUndefined();
  });

  it('plans again, for the code a sibling event carries, a retry planned for the unknown decline and not attempted yet', async () => {
    // Prepare: the invoice event (no decline code: planned as unknown), then the PaymentIntent event with insufficient_funds
    const m = merchant();
    const { payment_event_id: id } = await failure(m, { providerPaymentId: 'pi_detail', declineCode: null });
    const opened = await current(m, { id } as PaymentRecord);
    // Act
    await failure(m, { providerPaymentId: 'pi_detail', declineCode: 'insufficient_funds', network: 'visa', networkCode: '51' });
    const after = await current(m, opened);
    // Assess: the payday plan of an insufficient-funds decline, made at the write that learnt the code
    expect(opened).toMatchObject({ decline_code: null, decline_category: 'unknown', status: 'retrying' });
    expect(after).toMatchObject({
      status: 'retrying',
      decline_code: 'insufficient_funds',
      decline_category: 'soft_retry',
      decline_subcategory: 'balance',
      network_code: '51',
      card_network: 'visa',
      retry_count: 0,
    });
    const plan = await retryPlanOf({ ...after, next_retry_at: null }, new Date(after.updated_at));
    expect(plan).toEqual({ type: 'schedule_retry', at: after.next_retry_at, reason: expect.stringMatching(/^Retry 1 of 8 at .*insufficient-funds/) });
    expect(after.next_retry_at).not.toBe(opened.next_retry_at);
    expect(after.state_history.at(-1)).toEqual({ status: 'retrying', at: after.updated_at, reason: (plan as { reason: string }).reason });
    expect(await dueIndexEntryOf(m, after)).toBe(dueRetryKeys.entry(m, after.id.slice(3), after.next_retry_at as string).GSI4SK);
    // Act: the old plan's time passes with no attempt; the new one's brings retry 1
    await runJobAt(new Date(opened.next_retry_at as string));
    expect(await sandboxChargesOf(m, opened.id)).toEqual([]);
    await runJobAt(new Date(after.next_retry_at as string));
    expect((await sandboxChargesOf(m, opened.id)).map((c) => c.idempotency_key)).toEqual([`retry-${opened.id}-1`]);
  });

  it('makes a recovery wait for a card update when a sibling event carries a hard decline the first lacked', async () => {
    // Prepare
    const m = merchant();
    const { payment_event_id: id } = await failure(m, { providerPaymentId: 'pi_hard', declineCode: null });
    const opened = await current(m, { id } as PaymentRecord);
    // Act
    await failure(m, { providerPaymentId: 'pi_hard', declineCode: 'expired_card' });
    const after = await current(m, opened);
    await runJobAt(new Date(opened.next_retry_at as string));
    // Assess
    expect(after).toMatchObject({
      status: 'pending',
      decline_code: 'expired_card',
      decline_category: 'hard_customer',
      awaiting_card_update: true,
      next_retry_at: null,
    });
    expect(await dueIndexEntryOf(m, after)).toBeUndefined();
    expect(await sandboxChargesOf(m, opened.id)).toEqual([]);
  });

  it('attempts a retry requested through the API at the next run, once, with its key; another request within 5 minutes is refused', async () => {
    // Prepare: insufficient_funds (the sandbox declines retry 1), its planned retry days away
    const m = merchant();
    const payment = await seedPayment(m, {}, T0);
    const requestedAt = later(T0, HOUR);
    // Act
    const request = await requestRetry(m, payment.id, requestedAt);
    const queued = await current(m, payment);
    const queuedEntry = await dueIndexEntryOf(m, queued);
    const chargesBeforeRun = await sandboxChargesOf(m, payment.id);
    await runJobAt(later(requestedAt, 60_000));
    const attempted = await current(m, payment);
    const tooSoon = await requestRetry(m, payment.id, later(requestedAt, 3 * 60_000)).catch((error: unknown) => error);
    const next = await requestRetry(m, payment.id, later(new Date(attempted.last_attempt_at as string), 5 * 60_000));
    // Assess
    expect(request).toMatchObject({ kind: 'queued', retryNumber: 1, dueAt: requestedAt.toISOString() });
    expect(queued).toMatchObject({
      status: 'retrying',
      next_retry_at: requestedAt.toISOString(),
      retry_requested_at: queued.updated_at,
      retry_count: 0,
      attempt: null,
    });
    expect(queuedEntry).toBe(dueRetryKeys.entry(m, payment.id.slice(3), requestedAt.toISOString()).GSI4SK);
    expect(chargesBeforeRun).toEqual([]);
    expect(attempted).toMatchObject({ status: 'retrying', retry_count: 1, decline_code: 'insufficient_funds', attempt: null });
    expect((await sandboxChargesOf(m, payment.id)).map((c) => [c.idempotency_key, c.calls])).toEqual([[`retry-${payment.id}-1`, 1]]);
    expect(tooSoon).toBeInstanceOf(StateConflictError);
    expect((tooSoon as Error).message).toMatch(/less than 5 minutes ago/);
    expect(next).toMatchObject({ kind: 'queued', retryNumber: 2 });
  });

  it('keeps one recovery per invoice when the provider retries it under new transaction ids, even at once', async () => {
    // Prepare
    const m = merchant();
    // Act: the first failure, then 5 provider retries of the same invoice, concurrently
    const first = await failure(m, { providerPaymentId: 'txn_1', invoiceId: 'in_same', psp: 'braintree', declineCode: '2001' });
    const retries = await Promise.all(
      ['txn_2', 'txn_3', 'txn_4', 'txn_5', 'txn_6'].map((id) =>
        failure(m, { providerPaymentId: id, invoiceId: 'in_same', psp: 'braintree', declineCode: '2001' }),
      ),
    );
    // Assess
    expect(first.status).toBe('processed');
    expect(new Set(retries.map((r) => r.payment_event_id))).toEqual(new Set([first.payment_event_id]));
    expect(retries.every((r) => r.status === 'duplicate')).toBe(true);
  });

  it('defers the retries left when a run has used its time budget, and the next run takes them', async () => {
    // Prepare
    const m = merchant();
    const payments = await Promise.all(
      Array.from({ length: 3 }, (_, i) => seedPayment(m, { ...PROCESSING_ERROR, customer: { email: `budget${i}@example.com` } }, T0)),
    );
    const runAt = later(T0, 30 * 24 * HOUR);
    // Act: a run with no budget left starts nothing
    const spent = await executeDueRetries({ now: runAt, executionId: 'spent' }, { budgetMs: -1 });
    const untouched = await Promise.all(payments.map((p) => current(m, p)));
    await executeDueRetries({ now: runAt, executionId: 'next' });
    const settled = await Promise.all(payments.map((p) => current(m, p)));
    // Assess
    expect(spent.deferred).toBe(spent.due);
    expect(spent.due).toBeGreaterThanOrEqual(3);
    expect(untouched).toEqual(payments);
    expect(settled.map((p) => p.status)).toEqual(['recovered', 'recovered', 'recovered']);
  });

  it('files a due entry under its shard with the due time first, so a run reads only what is due', () => {
    // Prepare / Act
    const entry = dueRetryKeys.entry('merch_x', '01ABC', '2026-12-07T15:00:00.000Z');
    // Assess
    expect(entry.GSI4PK).toMatch(/^DUE#[0-7]$/);
    expect(entry.GSI4SK).toBe('2026-12-07T15:00:00.000Z#merch_x#01ABC');
    expect(entry.GSI4SK <= dueRetryKeys.dueUpTo('2026-12-07T15:00:00.000Z')).toBe(true);
    expect(entry.GSI4SK <= dueRetryKeys.dueUpTo('2026-12-07T14:59:59.999Z')).toBe(false);
  });
});
