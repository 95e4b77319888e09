/**
 * POST /api/v1/payments/{id}/retry, /pause and /resume over HTTP: every transition the status
 * machine allows through them and every one it refuses (409, nothing written), the response
 * bodies of both forms, ids of every kind, 404 for other merchants' payments, scopes, and
 * Idempotency-Key replays. A retry charges nothing in the request: it makes the payment's retry
 * due now (or at the end of quiet hours), and the retry executor's next run (the every-minute job's
 * task, driven by the test) attempts it through the merchant's gateway (the deterministic sandbox
 * in tests: an insufficient_funds decline declines on attempt 1 and succeeds on attempt 2, a
 * processing_error or hard_customer decline succeeds at once). Manual retries are at least 5
 * minutes apart. A pause drops the planned retry; a resume plans it again.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PausePaymentResponse, ResumePaymentResponse, RetryPaymentResponse } from '#api/payments/schemas';
import { attemptIdempotencyKey } from '#core/payment-gateway';
import { type PaymentRecord, paymentBodyOf } from '#core/payments';
import { documentClient } from '#data/client';
import { paymentKeys } from '#data/keys';
import { applyPaymentEvent, getPayment } from '#data/payment-repository';
import { paymentTimeline } from '#data/payment-queries';
import type { NewFailedPayment } from '#data/payment-repository';
import { sandboxChargesOf } from '#data/sandbox-charge-repository';
import { putQuietHours } from '#data/settings-repository';
import { executeDueRetries } from '#jobs/execute-due-retries';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { HARD_DECLINE, PROCESSING_ERROR, retryPlanOf, type SeedStep, seedPayment, seedPaymentThrough } from '#test/fixtures/payments';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

const HARD: Partial<NewFailedPayment> = HARD_DECLINE;
/** The next_retry_at seedPaymentThrough's `retry` step schedules. */
const SEEDED_RETRY_AT = '2026-12-01T10:00:00.000Z';

type Action = 'retry' | 'pause' | 'resume';
interface Body {
  ok?: boolean;
  data: Record<string, unknown>;
  error?: { code: string; message: string; param?: string };
}

describe('POST /api/v1/payments/{id}/retry, /pause, /resume', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const url = (id: string, action: Action) => `${stack.api_url}/payments/${encodeURIComponent(id)}/${action}`;
  const post = (id: string, action: Action, options: { key?: string; headers?: Record<string, string> } = {}) =>
    call<Body>(url(id, action), { method: 'POST', key: options.key ?? tenant.key, ...(options.headers ? { headers: options.headers } : {}) });
  const stored = async (payment: PaymentRecord) => (await getPayment(tenant.merchant.id, payment.id)) as PaymentRecord;
  /** The payment's entry in the due index (GSI4SK), undefined when it has none. */
  const dueEntryOf = async (payment: PaymentRecord, merchantId = tenant.merchant.id) =>
    (
      await documentClient.send(
        new GetCommand({ TableName: process.env.TABLE_NAME, Key: paymentKeys.payment(merchantId, paymentBodyOf(payment.id) as string), ConsistentRead: true }),
      )
    ).Item?.GSI4SK as string | undefined;
  /** One run of the retry executor, as the every-minute job runs it, at `now`. */
  const runExecutor = (now = new Date()) => executeDueRetries({ now, executionId: `test-${now.getTime()}` });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  });

  afterAll(async () => {
    await stack.stop();
  });

  describe('transitions the status machine allows', () => {
    // The timeline entries each request adds are compared as a set here: their order is asserted
    // in get-payment.test.ts ("answers the events oldest first").
    it.each([
      ['retry', 'retrying (a soft decline), its retry due now', [], {}, 'retrying', 1, ['retry_scheduled']],
      ['retry', 'retrying with its retry rescheduled, its retry due now', ['retry'], {}, 'retrying', 1, ['retry_scheduled']],
      ['retry', 'retrying (a processing_error decline), its retry due now', [], PROCESSING_ERROR, 'retrying', 1, ['retry_scheduled']],
      ['retry', 'a hard_customer decline, retrying since its card was updated, its retry due now', ['card_updated'], HARD, 'retrying', 1, ['retry_scheduled']],
      ['pause', 'pending (a hard_customer decline waiting for a card)', [], HARD, 'paused', 1, ['status_change']],
      ['pause', 'retrying', [], {}, 'paused', 1, ['status_change']],
      ['pause', 'retrying with its retry rescheduled', ['retry'], {}, 'paused', 1, ['status_change']],
      ['resume', 'paused from pending (still waiting for a card: nothing planned)', ['pause'], HARD, 'pending', 1, ['status_change']],
      ['resume', 'paused from retrying (the retry planned again)', ['pause'], {}, 'retrying', 2, ['status_change', 'retry_scheduled']],
      [
        'resume',
        'paused from retrying with its retry rescheduled (the retry planned again)',
        ['retry', 'pause'],
        {},
        'retrying',
        2,
        ['status_change', 'retry_scheduled'],
      ],
    ] as const)(
      '%s moves %s (seed steps %j, decline %j) to %s, with %i state_history entries more',
      async (action, _from, steps, overrides, to, newEntries, added) => {
        // Prepare
        const payment = await seedPaymentThrough(tenant.merchant.id, steps as readonly SeedStep[], overrides);
        const timelineBefore = await paymentTimeline(tenant.merchant.id, payment);
        // Act
        const response = await post(payment.id, action);
        // Assess
        expect(response.status).toBe(action === 'retry' ? 202 : 200);
        const after = await stored(payment);
        expect(after.status).toBe(to);
        expect(after.state_history).toHaveLength(payment.state_history.length + newEntries);
        expect(after.state_history.slice(0, payment.state_history.length)).toEqual(payment.state_history);
        expect(after.state_history.at(-1)).toMatchObject({ status: to, at: after.updated_at });
        const timeline = await paymentTimeline(tenant.merchant.id, payment);
        expect(timeline.slice(0, timelineBefore.length)).toEqual(timelineBefore);
        expect(
          timeline
            .slice(timelineBefore.length)
            .map((entry) => entry.type)
            .sort(),
        ).toEqual([...added].sort());
        // Nothing is charged in the request: the executor attempts the retry.
        expect(await sandboxChargesOf(tenant.merchant.id, payment.id)).toEqual([]);
        expect(after.next_retry_at === null).toBe(to !== 'retrying');
        expect(await dueEntryOf(payment)).toBe(to === 'retrying' ? `${after.next_retry_at}#${tenant.merchant.id}#${paymentBodyOf(payment.id)}` : undefined);
        const http = await call<Body>(`${stack.api_url}/payments/${payment.id}`, { key: tenant.key });
        expect(http.body.data.status).toBe(to);
      },
    );

    it("answers a retry with 202 retry_initiated, due now, charging nothing; the executor's next run attempts it once (declined: retry 2 planned)", async () => {
      // Prepare: insufficient_funds, retrying with retry 1 planned days away at recording.
      const payment = await seedPayment(tenant.merchant.id);
      // Act
      const response = await post(payment.id, 'retry');
      const queued = await stored(payment);
      const queuedEntry = await dueEntryOf(payment);
      const chargesBeforeRun = await sandboxChargesOf(tenant.merchant.id, payment.id);
      await runExecutor();
      // Assess: the answer and the due retry
      expect(response.status).toBe(202);
      expect(RetryPaymentResponse.safeParse(response.body).success).toBe(true);
      const dueAt = queued.next_retry_at as string;
      const reason = 'Retry 1 requested through the API: due now, for the retry executor';
      expect(response.body.data).toEqual({
        payment_id: payment.id,
        status: 'retry_initiated',
        payment_status: 'retrying',
        next_retry_at: dueAt,
        reason,
        retry_scheduled: true,
        retry_number: 1,
        scheduled_at: dueAt,
      });
      expect(Date.parse(dueAt)).toBeLessThanOrEqual(Date.parse(queued.updated_at));
      expect(Date.parse(dueAt)).toBeLessThan(Date.parse(payment.next_retry_at as string));
      expect(queued).toMatchObject({ status: 'retrying', retry_count: 0, attempt: null, retry_requested_at: queued.updated_at });
      expect(queued.state_history.at(-1)).toEqual({ status: 'retrying', at: queued.updated_at, reason });
      expect(queuedEntry).toBe(`${dueAt}#${tenant.merchant.id}#${paymentBodyOf(payment.id)}`);
      expect(chargesBeforeRun).toEqual([]);
      // Assess: the executor's attempt, with its idempotency key, and retry 2 planned by the policy
      const after = await stored(payment);
      expect(after).toMatchObject({ status: 'retrying', retry_count: 1, attempt: null, decline_code: 'insufficient_funds', last_attempt_at: after.updated_at });
      const plan = await retryPlanOf({ ...after, next_retry_at: null }, new Date(after.last_attempt_at as string));
      expect(plan).toEqual({ type: 'schedule_retry', at: after.next_retry_at, reason: expect.stringMatching(/^Retry 2 of 8 at /) });
      expect(await sandboxChargesOf(tenant.merchant.id, payment.id)).toEqual([
        expect.objectContaining({
          idempotency_key: attemptIdempotencyKey(payment.id, 1),
          state: 'answered',
          outcome: { status: 'declined', declineCode: 'insufficient_funds' },
          amount: 4999,
          currency: 'usd',
          calls: 1,
        }),
      ]);
      const types = (await paymentTimeline(tenant.merchant.id, payment)).map((event) => event.type);
      expect(types.slice(2)).toEqual(['retry_scheduled', 'retry_attempted', 'retry_failed', 'retry_scheduled']);
    });

    it("recovers a processing_error at the executor's next run after a retry request", async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id, PROCESSING_ERROR);
      // Act
      const response = await post(payment.id, 'retry');
      await runExecutor();
      // Assess
      expect(response.body.data).toMatchObject({ status: 'retry_initiated', retry_number: 1 });
      const after = await stored(payment);
      expect(after).toMatchObject({ status: 'recovered', retry_count: 1, next_retry_at: null, attempt: null, recovered_at: after.updated_at });
      expect(await dueEntryOf(payment)).toBeUndefined();
      expect(await sandboxChargesOf(tenant.merchant.id, payment.id)).toEqual([
        expect.objectContaining({
          idempotency_key: attemptIdempotencyKey(payment.id, 1),
          state: 'answered',
          outcome: { status: 'succeeded', providerChargeId: `sbx_ch_${attemptIdempotencyKey(payment.id, 1)}` },
          calls: 1,
        }),
      ]);
    });

    it("answers retry_scheduled with the end of the merchant's quiet hours when they cover now, and the executor waits for it", async () => {
      // Prepare: a merchant of its own whose quiet hours cover now.
      const quiet = await newTenant(['admin'], UNLIMITED);
      const now = new Date();
      const startHour = now.getUTCHours();
      const endHour = (startHour + 2) % 24;
      await putQuietHours(quiet.merchant.id, { startHour, endHour, timezone: 'UTC', enabled: true });
      const payment = await seedPayment(quiet.merchant.id);
      const windowEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), startHour + 2)).toISOString();
      // Act
      const response = await post(payment.id, 'retry', { key: quiet.key });
      await runExecutor();
      // Assess
      expect(response.status).toBe(202);
      expect(RetryPaymentResponse.safeParse(response.body).success).toBe(true);
      const reason = `Retry 1 requested through the API, moved to ${windowEnd}: after the merchant's quiet hours (${startHour}:00-${endHour}:00 UTC)`;
      expect(response.body.data).toEqual({
        payment_id: payment.id,
        status: 'retry_scheduled',
        payment_status: 'retrying',
        next_retry_at: windowEnd,
        reason,
        retry_scheduled: true,
        retry_number: 1,
        scheduled_at: windowEnd,
      });
      const after = (await getPayment(quiet.merchant.id, payment.id)) as PaymentRecord;
      expect(after).toMatchObject({ status: 'retrying', retry_count: 0, next_retry_at: windowEnd, attempt: null });
      expect(after.state_history.at(-1)).toEqual({ status: 'retrying', at: after.updated_at, reason });
      expect(await dueEntryOf(payment, quiet.merchant.id)).toBe(`${windowEnd}#${quiet.merchant.id}#${paymentBodyOf(payment.id)}`);
      expect(await sandboxChargesOf(quiet.merchant.id, payment.id)).toEqual([]);
    });

    it('numbers the retry after the attempts already made', async () => {
      // Prepare: attempts already made, as the retry engine counts them (retry 3 of the sandbox succeeds).
      const payment = await seedPayment(tenant.merchant.id);
      await documentClient.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: paymentKeys.payment(tenant.merchant.id, paymentBodyOf(payment.id) as string),
          UpdateExpression: 'SET retry_count = :n',
          ExpressionAttributeValues: { ':n': 2 },
        }),
      );
      // Act
      const response = await post(payment.id, 'retry');
      await runExecutor();
      // Assess
      expect(response.body.data).toMatchObject({ status: 'retry_initiated', retry_number: 3 });
      expect(await stored(payment)).toMatchObject({ status: 'recovered', retry_count: 3 });
      expect((await sandboxChargesOf(tenant.merchant.id, payment.id)).map((charge) => charge.idempotency_key)).toEqual([attemptIdempotencyKey(payment.id, 3)]);
    });

    it('refuses manual retries within 5 minutes of the last request or attempt with 409 state_conflict: four at once charge once', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      // Act: four requests at once, then the executor's run, then one more request
      const burst = await Promise.all(Array.from({ length: 4 }, () => post(payment.id, 'retry')));
      const queued = await stored(payment);
      await runExecutor();
      const attempted = await stored(payment);
      const afterAttempt = await post(payment.id, 'retry');
      // Assess
      expect(burst.map((response) => response.status).sort()).toEqual([202, 409, 409, 409]);
      for (const refused of burst.filter((response) => response.status === 409)) {
        expect(refused.body.error).toMatchObject({
          code: 'state_conflict',
          message: expect.stringMatching(/less than 5 minutes ago; the next manual retry is allowed at /),
        });
      }
      expect(queued.version).toBe(payment.version + 1);
      expect(queued.state_history).toHaveLength(payment.state_history.length + 1);
      expect(await sandboxChargesOf(tenant.merchant.id, payment.id)).toEqual([
        expect.objectContaining({ idempotency_key: attemptIdempotencyKey(payment.id, 1), calls: 1 }),
      ]);
      expect(afterAttempt.status).toBe(409);
      expect(afterAttempt.body.error?.message).toContain(new Date(Date.parse(attempted.last_attempt_at as string) + 5 * 60_000).toISOString());
      expect(await stored(payment)).toEqual(attempted);
    });

    it('answers a pause with A fields, B payment_id and ok', async () => {
      // Prepare
      const payment = await seedPaymentThrough(tenant.merchant.id, ['retry']);
      // Act
      const response = await post(payment.id, 'pause');
      // Assess
      expect(PausePaymentResponse.safeParse(response.body).success).toBe(true);
      const after = await stored(payment);
      expect(response.body).toMatchObject({
        ok: true,
        data: { id: payment.id, payment_id: payment.id, status: 'paused', paused_at: after.paused_at, previous_status: 'retrying' },
      });
      expect(after.paused_at).toBe(after.updated_at);
      // Paused: no retry planned, none shown, none in the due index.
      expect(after.next_retry_at).toBeNull();
      expect(await dueEntryOf(payment)).toBeUndefined();
      const http = await call<Body>(`${stack.api_url}/payments/${payment.id}`, { key: tenant.key });
      expect(http.body.data).toMatchObject({ status: 'paused', next_retry_at: null, paused_at: after.paused_at });
    });

    it('answers a resume with A fields, B payment_id and ok, the status before the pause, paused_at cleared and the retry planned again', async () => {
      // Prepare
      const payment = await seedPaymentThrough(tenant.merchant.id, ['retry', 'pause']);
      // Act
      const response = await post(payment.id, 'resume');
      // Assess
      expect(ResumePaymentResponse.safeParse(response.body).success).toBe(true);
      const after = await stored(payment);
      expect(response.body).toEqual({
        ok: true,
        data: { id: payment.id, payment_id: payment.id, status: 'retrying', resumed_at: after.updated_at, next_retry_at: after.next_retry_at },
        meta: expect.objectContaining({ merchant_id: tenant.merchant.id }),
      });
      expect(after).toMatchObject({ paused_at: null, previous_status: null, resumed_at: after.updated_at });
      // The policy's decision at the resume, not the time planned before the pause.
      const plan = await retryPlanOf({ ...after, next_retry_at: null }, new Date(after.updated_at));
      expect(plan).toEqual({ type: 'schedule_retry', at: after.next_retry_at, reason: expect.stringMatching(/^Retry 1 of 8 at /) });
      expect(after.next_retry_at).not.toBe(SEEDED_RETRY_AT);
      expect(await dueEntryOf(payment)).toBe(`${after.next_retry_at}#${tenant.merchant.id}#${paymentBodyOf(payment.id)}`);
      const http = await call<Body>(`${stack.api_url}/payments/${payment.id}`, { key: tenant.key });
      expect(http.body.data).toMatchObject({ status: 'retrying', paused_at: null, next_retry_at: after.next_retry_at });
    });

    it('takes the recovery id and the provider charge id as well as the payment id', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id, { providerPaymentId: 'pi_3PqRsTuV' });
      // Act
      const paused = await post('pi_3PqRsTuV', 'pause');
      const resumed = await post(payment.recovery_id, 'resume');
      const retried = await post('pi_3PqRsTuV', 'retry');
      // Assess
      expect([paused.status, resumed.status, retried.status]).toEqual([200, 200, 202]);
      expect([paused.body.data.id, resumed.body.data.id, retried.body.data.payment_id]).toEqual([payment.id, payment.id, payment.id]);
      expect((await stored(payment)).status).toBe('retrying');
    });
  });

  describe('transitions the status machine refuses', () => {
    it.each([
      ['retry', 'recovered', ['recover'], {}, /recovered/],
      ['retry', 'terminal', ['terminate'], {}, /terminal/],
      // A do-not-retry decline blocks its card: a customer of its own, so the other cases' card stays open.
      [
        'retry',
        'terminal from a do-not-retry decline',
        [],
        { declineCategory: 'terminal', declineSubcategory: 'fraud', retryAllowed: false, customer: { email: 'blocked-card@example.com' } },
        /terminal/,
      ],
      ['retry', 'recorded with max_retries 0 (terminal at once: the policy allows it no retry)', [], { maxRetries: 0 }, /terminal/],
      ['retry', 'paused', ['pause'], {}, /paused/],
      ['retry', 'a hard_customer decline awaiting a card update', [], HARD, /hard_customer decline waits for a card update/],
      ['pause', 'paused', ['pause'], {}, /paused/],
      ['pause', 'recovered', ['recover'], {}, /recovered/],
      ['pause', 'terminal', ['terminate'], {}, /terminal/],
      ['resume', 'pending', [], HARD, /pending/],
      ['resume', 'retrying', [], {}, /retrying/],
      ['resume', 'retrying with its retry rescheduled', ['retry'], {}, /retrying/],
      ['resume', 'recovered', ['recover'], {}, /recovered/],
      ['resume', 'terminal', ['terminate'], {}, /terminal/],
    ] as const)('refuses %s of a payment %s with 409 state_conflict naming why, and writes nothing', async (action, _state, steps, overrides, why) => {
      // Prepare
      const payment = await seedPaymentThrough(tenant.merchant.id, steps as readonly SeedStep[], overrides);
      const before = await stored(payment);
      const timelineBefore = await paymentTimeline(tenant.merchant.id, payment);
      // Act
      const response = await post(payment.id, action);
      // Assess
      expect(response.status).toBe(409);
      expect(response.body.error?.code).toBe('state_conflict');
      expect(response.body.error?.message).toMatch(why);
      expect(await stored(payment)).toEqual(before);
      expect(await paymentTimeline(tenant.merchant.id, payment)).toEqual(timelineBefore);
      expect(await sandboxChargesOf(tenant.merchant.id, payment.id)).toEqual([]);
    });

    it('refuses a retry once the retry count reaches max_retries', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      await documentClient.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: paymentKeys.payment(tenant.merchant.id, paymentBodyOf(payment.id) as string),
          UpdateExpression: 'SET retry_count = max_retries',
        }),
      );
      // Act
      const response = await post(payment.id, 'retry');
      // Assess
      expect(response.status).toBe(409);
      expect(response.body.error?.message).toMatch(/maximum of 8 retries/);
    });

    it('refuses a retry while an attempt is in flight, and writes nothing', async () => {
      // Prepare: retry 1 recorded by another run, its lease still running.
      const payment = await seedPayment(tenant.merchant.id);
      const now = new Date();
      const attempt = {
        number: 1,
        idempotency_key: attemptIdempotencyKey(payment.id, 1),
        gateway: 'sandbox',
        recorded_at: now.toISOString(),
        lease_until: new Date(now.getTime() + 5 * 60_000).toISOString(),
      };
      await applyPaymentEvent(tenant.merchant.id, payment.id, { type: 'start_attempt', attempt, reason: 'set up by the test' }, now);
      const before = await stored(payment);
      // Act
      const response = await post(payment.id, 'retry');
      // Assess
      expect(response.status).toBe(409);
      expect(response.body.error).toMatchObject({ code: 'state_conflict', message: `Cannot retry payment ${payment.id}: retry 1 is being attempted now.` });
      expect(await stored(payment)).toEqual(before);
      expect(before.attempt).toEqual(attempt);
      expect(await sandboxChargesOf(tenant.merchant.id, payment.id)).toEqual([]);
    });
  });

  describe('ids, tenants and scopes', () => {
    it.each(['retry', 'pause', 'resume'] as const)('answers %s of an unknown payment with 404', async (action) => {
      // Act
      const responses = await Promise.all(
        ['pe_01JAAAAAAAAAAAAAAAAAAAAAAA', 'rec_01JAAAAAAAAAAAAAAAAAAAAAAA', 'ch_nobody', 'pe_1'].map((id) => post(id, action)),
      );
      // Assess
      expect(responses.map((response) => [response.status, response.body.error?.code])).toEqual(Array(4).fill([404, 'resource_not_found']));
    });

    it.each([
      ['retry', []],
      ['pause', []],
      ['resume', ['pause']],
    ] as const)("answers %s of another merchant's payment with 404 and leaves it alone", async (action, steps) => {
      // Prepare
      const payment = await seedPaymentThrough(tenant.merchant.id, steps, { providerPaymentId: `ch_other_${action}` });
      const before = await stored(payment);
      // Act and assess
      await expectOtherMerchantGets404(url(payment.id, action), { method: 'POST' });
      await expectOtherMerchantGets404(url(`ch_other_${action}`, action), { method: 'POST' });
      expect(await stored(payment)).toEqual(before);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays a retry byte for byte without requesting it twice', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      const headers = { 'Idempotency-Key': `retry-${payment.id}` };
      // Act
      const first = await post(payment.id, 'retry', { headers });
      const second = await post(payment.id, 'retry', { headers });
      // Assess
      expect(first.status).toBe(202);
      expect(second.status).toBe(202);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(first.body.data).toMatchObject({ status: 'retry_initiated', retry_number: 1 });
      const after = await stored(payment);
      // One request: one write, nothing charged (the executor attempts it).
      expect(after.version).toBe(payment.version + 1);
      expect(after.retry_count).toBe(0);
      expect(await sandboxChargesOf(tenant.merchant.id, payment.id)).toEqual([]);
      const types = (await paymentTimeline(tenant.merchant.id, payment)).map((event) => event.type);
      expect(types).toEqual(['payment_failed', 'retry_scheduled', 'retry_scheduled']);
    });

    it('replays a refused retry as the same 409', async () => {
      // Prepare
      const payment = await seedPaymentThrough(tenant.merchant.id, ['recover']);
      const headers = { 'Idempotency-Key': `refused-${payment.id}` };
      // Act
      const first = await post(payment.id, 'retry', { headers });
      const second = await post(payment.id, 'retry', { headers });
      // Assess
      expect(first.status).toBe(409);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
    });

    it('refuses the same key on another payment with 422 naming Idempotency-Key', async () => {
      // Prepare
      const one = await seedPayment(tenant.merchant.id);
      const other = await seedPayment(tenant.merchant.id);
      const headers = { 'Idempotency-Key': `shared-${one.id}` };
      await post(one.id, 'retry', { headers });
      // Act
      const response = await post(other.id, 'retry', { headers });
      // Assess
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'Idempotency-Key' });
      expect(await stored(other)).toEqual(other);
      expect(await sandboxChargesOf(tenant.merchant.id, other.id)).toEqual([]);
    });
  });
});
