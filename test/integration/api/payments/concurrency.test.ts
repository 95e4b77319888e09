/**
 * 50 pause, resume and retry requests at once on one payment, over HTTP: no 5xx, every refusal a
 * 409, and a state that adds up: one state_history entry per request that changed the status, a
 * history that only ever takes allowed steps, one timeline entry per accepted request, and
 * counters and customer figures that still count the payment once.
 */
import { type PaymentStatus, type StateHistoryEntry } from '../../../../functions/core/payments';
import { getCustomer } from '../../../../functions/data/customer-repository';
import { getPayment, paymentCounters } from '../../../../functions/data/payment-repository';
import { paymentTimeline } from '../../../../functions/data/payment-queries';
import type { LocalStack } from '../../../../lib/local/local-stack';
import { call } from '../../../fixtures/http';
import { startTestStack } from '../../../fixtures/local-stack';
import { seedPayment } from '../../../fixtures/payments';
import { newTenant } from '../../../fixtures/tenants';

const REQUESTS = 50;
const ACTIONS = ['pause', 'resume', 'retry'] as const;

/** Whether `to` may follow `from` in a history written by pause, resume and retry alone. */
function allowedStep(from: PaymentStatus, to: PaymentStatus, pausedFrom: PaymentStatus | undefined): boolean {
  if (from === 'pending') return to === 'paused' || to === 'retrying';
  if (from === 'retrying') return to === 'paused';
  if (from === 'paused') return to === pausedFrom;
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
    // Prepare
    const tenant = await newTenant(['write:payments', 'read:payments'], { read_per_minute: 1_000_000, write_per_minute: 1_000_000 });
    const m = tenant.merchant.id;
    const payment = await seedPayment(m);
    // Act
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const action = ACTIONS[i % ACTIONS.length] as (typeof ACTIONS)[number];
        const response = await call<{ error?: { code: string } }>(`${stack.api_url}/payments/${payment.id}/${action}`, { method: 'POST', key: tenant.key });
        return { action, status: response.status, code: response.body?.error?.code };
      }),
    );
    // Assess
    expect(responses.filter((response) => response.status >= 500)).toEqual([]);
    for (const response of responses.filter((r) => r.status >= 300)) expect(response).toMatchObject({ status: 409, code: 'state_conflict' });
    const accepted = responses.filter((response) => response.status < 300);
    const acceptedOf = (action: string) => accepted.filter((response) => response.action === action).length;
    // Every accepted pause and resume changes the status. A retry changes it only from pending,
    // and pending is left for good by the first accepted retry (resume restores retrying after
    // that), so exactly one accepted retry changed the status if any was accepted.
    const statusChanges = acceptedOf('pause') + acceptedOf('resume') + (acceptedOf('retry') > 0 ? 1 : 0);
    const final = await getPayment(m, payment.id);
    expect(final?.state_history).toHaveLength(1 + statusChanges);
    expectAllowedSteps(final?.state_history ?? []);
    expect(final?.status).toBe(final?.state_history.at(-1)?.status);
    expect(final?.version).toBe(payment.version + accepted.length);
    expect(await paymentTimeline(m, payment)).toHaveLength(1 + accepted.length);
    const http = await call<{ data: { status: string } }>(`${stack.api_url}/payments/${payment.id}`, { key: tenant.key });
    expect(http.body.data.status).toBe(final?.status);
    const counters = await paymentCounters(m);
    expect(counters.all).toBe(1);
    expect(counters[`s:${final?.status}`]).toBe(1);
    expect((await getCustomer(m, payment.customer_id))?.open_payments).toBe(1);
  }, 120_000);
});
