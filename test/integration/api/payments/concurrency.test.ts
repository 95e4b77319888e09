/**
 * 50 pause, resume and retry requests at once on one payment, over HTTP: no 5xx, every refusal a
 * 409, and a state that adds up. A retry runs an attempt through the sandbox gateway (an
 * insufficient_funds decline: retry 1 declines, retry 2 succeeds), so at most two retries are
 * accepted and each charges the card once. The history only ever takes allowed steps and has one
 * entry per accepted pause and resume plus those the attempts and the policy's plans left; the
 * version and the timeline count every write; counters and customer figures count the payment once.
 */
import { attemptIdempotencyKey } from '../../../../functions/core/payment-gateway';
import { isOpen, type PaymentStatus, type StateHistoryEntry } from '../../../../functions/core/payments';
import { getCustomer } from '../../../../functions/data/customer-repository';
import { getPayment, paymentCounters } from '../../../../functions/data/payment-repository';
import { paymentTimeline } from '../../../../functions/data/payment-queries';
import { sandboxChargesOf } from '../../../../functions/data/sandbox-charge-repository';
import type { LocalStack } from '../../../../lib/local/local-stack';
import { call } from '../../../fixtures/http';
import { startTestStack } from '../../../fixtures/local-stack';
import { seedPayment } from '../../../fixtures/payments';
import { newTenant } from '../../../fixtures/tenants';

const REQUESTS = 50;
const ACTIONS = ['pause', 'resume', 'retry'] as const;

interface RetryData {
  attempted: boolean;
  outcome: string | null;
  retry_number: number;
}

/**
 * Whether `to` may follow `from` in a history written by the recording, pause, resume and retry:
 * the recording plans retry 1 (pending → retrying); a declined attempt plans the next retry
 * (retrying → retrying), or, when it lands on a paused payment, the resume does (paused → the
 * status before the pause, then retrying → retrying); a successful attempt recovers the payment,
 * paused or not.
 */
function allowedStep(from: PaymentStatus, to: PaymentStatus, pausedFrom: PaymentStatus | undefined): boolean {
  if (from === 'pending') return to === 'paused' || to === 'retrying';
  if (from === 'retrying') return to === 'paused' || to === 'retrying' || to === 'recovered';
  if (from === 'paused') return to === pausedFrom || to === 'recovered';
  return false;
}

function expectAllowedSteps(history: readonly StateHistoryEntry[]): void {
  let pausedFrom: PaymentStatus | undefined;
  history.forEach((entry, index) => {
    const previous = history[index - 1];
    if (previous === undefined) return;
    expect({ step: index, from: previous.status, to: entry.status, allowed: allowedStep(previous.status, entry.status, pausedFrom) }).toEqual({ step: index, from: previous.status, to: entry.status, allowed: true });
    if (entry.status === 'paused') pausedFrom = previous.status;
  });
}

describe('concurrent POST /payments/{id}/pause, /resume and /retry on one payment', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack.stop();
  });

  it(`keeps a consistent state under ${REQUESTS} parallel requests`, async () => {
    // Prepare: insufficient_funds, retrying with retry 1 planned at recording.
    const tenant = await newTenant(['write:payments', 'read:payments'], { read_per_minute: 1_000_000, write_per_minute: 1_000_000 });
    const m = tenant.merchant.id;
    const payment = await seedPayment(m);
    // Act
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const action = ACTIONS[i % ACTIONS.length] as (typeof ACTIONS)[number];
        const response = await call<{ data?: RetryData; error?: { code: string } }>(`${stack.api_url}/payments/${payment.id}/${action}`, { method: 'POST', key: tenant.key });
        return { action, status: response.status, code: response.body?.error?.code, data: response.body?.data };
      }),
    );
    // Assess
    expect(responses.filter((response) => response.status >= 500)).toEqual([]);
    for (const response of responses.filter((r) => r.status >= 300)) expect(response).toMatchObject({ status: 409, code: 'state_conflict' });
    const accepted = responses.filter((response) => response.status < 300);
    const acceptedOf = (action: string) => accepted.filter((response) => response.action === action);
    const pauses = acceptedOf('pause').length;
    const resumes = acceptedOf('resume').length;
    // Every accepted retry attempted once, numbered in turn: retry 1 declined, retry 2 succeeded.
    const attempts = acceptedOf('retry').map((response) => response.data as RetryData).sort((a, b) => a.retry_number - b.retry_number);
    expect(attempts.map((attempt) => [attempt.attempted, attempt.retry_number, attempt.outcome])).toEqual([
      [true, 1, 'declined'],
      [true, 2, 'succeeded'],
    ].slice(0, attempts.length));
    const declined = attempts.filter((attempt) => attempt.outcome === 'declined').length;
    const succeeded = attempts.length - declined;
    const charges = await sandboxChargesOf(m, payment.id);
    expect(charges.map((charge) => [charge.idempotency_key, charge.calls]).sort()).toEqual(attempts.map((attempt) => [attemptIdempotencyKey(payment.id, attempt.retry_number), 1]).sort());

    const final = await getPayment(m, payment.id);
    if (final === undefined) throw new Error('the payment is gone');
    expectAllowedSteps(final.state_history);
    expect(final.status).toBe(final.state_history.at(-1)?.status);
    expect(final).toMatchObject({ retry_count: attempts.length, attempt: null });
    expect(final.status === 'recovered').toBe(succeeded > 0);
    // Each attempt is two writes (recorded, then its outcome); each pause and resume one.
    expect(final.version).toBe(payment.version + pauses + resumes + 2 * attempts.length);
    // The policy planned retry 2 after the decline, at once or (declined while paused) on the resume
    // that followed: one entry unless the payment is still paused with no retry planned.
    const awaitingResume = final.status === 'paused' && final.next_retry_at === null;
    const plans = declined > 0 && !awaitingResume ? 1 : 0;
    const history = final.state_history.slice(payment.state_history.length);
    expect(history.filter((entry) => entry.reason === 'Paused through the API')).toHaveLength(pauses);
    expect(history.filter((entry) => entry.reason === 'Resumed through the API')).toHaveLength(resumes);
    expect(history.filter((entry) => entry.reason.startsWith('Retry 2 of 4 at '))).toHaveLength(plans);
    expect(history.filter((entry) => entry.status === 'recovered')).toHaveLength(succeeded);
    expect(history).toHaveLength(pauses + resumes + plans + succeeded);
    const types = (await paymentTimeline(m, payment)).map((entry) => entry.type);
    const count = (type: string) => types.filter((t) => t === type).length;
    expect([count('payment_failed'), count('status_change'), count('retry_attempted'), count('retry_failed'), count('retry_succeeded'), count('retry_scheduled')]).toEqual([
      1,
      pauses + resumes,
      attempts.length,
      declined,
      succeeded,
      1 + plans,
    ]);
    expect(types).toHaveLength(1 + pauses + resumes + attempts.length + declined + succeeded + 1 + plans);

    const http = await call<{ data: { status: string } }>(`${stack.api_url}/payments/${payment.id}`, { key: tenant.key });
    expect(http.body.data.status).toBe(final.status);
    const counters = await paymentCounters(m);
    expect(counters.all).toBe(1);
    expect(counters[`s:${final.status}`]).toBe(1);
    const customer = await getCustomer(m, payment.customer_id);
    expect(customer?.open_payments).toBe(isOpen(final.status) ? 1 : 0);
    expect(customer?.recovered_payments).toBe(succeeded);
  }, 120_000);
});
