import { ResourceNotFoundError, StateConflictError } from '#core/errors';
import type { PaymentRecord, PaymentStatus } from '#core/payments';
import { customerPaymentsIn } from '#data/customer-queries';
import { outboundEventItem } from '#data/outbound-event-repository';
import type { TransactItem } from '#data/customer-repository';
import { changePayment } from '#data/payment-repository';

/**
 * Pausing and resuming a payment's retries: the only paths that apply the status machine's
 * `pause` and `resume` (POST /payments/{id}/pause and /resume, B's customer pause-all and
 * resume-all). Each is one transaction guarded by the version read (payment-repository
 * changePayment) that also records its outbound event, `payment.paused` or `payment.resumed`
 * (B's names; A has none), filed under the payment's customer. A refused change (409: pause of a
 * paused payment, resume of one that is not paused) throws before anything is written, so it
 * records nothing.
 */
export interface PaymentChanged {
  readonly before: PaymentRecord;
  readonly after: PaymentRecord;
}

/** The outbound event of a pause or resume, for the change's transaction, from the payment as changed. */
function eventOf(action: 'pause' | 'resume', after: PaymentRecord, reason: string): TransactItem {
  const payment = { payment_id: after.id, recovery_id: after.recovery_id, customer_id: after.customer_id, status: after.status };
  const at = new Date(after.updated_at);
  return action === 'pause'
    ? outboundEventItem(
        after.merchant_id,
        after.customer_id,
        ['payment.paused'],
        { ...payment, previous_status: after.previous_status, paused_at: after.paused_at, reason },
        at,
      )
    : outboundEventItem(
        after.merchant_id,
        after.customer_id,
        ['payment.resumed'],
        { ...payment, resumed_at: after.resumed_at, next_retry_at: after.next_retry_at, reason },
        at,
      );
}

async function pauseOrResume(merchantId: string, paymentId: string, action: 'pause' | 'resume', reason: string, now: Date): Promise<PaymentChanged> {
  const changed = await changePayment(
    merchantId,
    paymentId,
    () => ({ events: [{ type: action, reason }], itemsAfter: (after) => [eventOf(action, after, reason)] }),
    now,
  );
  if (changed === undefined) throw new Error(`A ${action} always writes`);
  return changed;
}

/** pending or retrying → paused; 404 unknown, 409 from any other status. */
export const pauseRetries = (merchantId: string, paymentId: string, reason: string, now: Date = new Date()): Promise<PaymentChanged> =>
  pauseOrResume(merchantId, paymentId, 'pause', reason, now);

/** paused → the status held before the pause (A), its retry planned again; 404 unknown, 409 unless paused. */
export const resumeRetries = (merchantId: string, paymentId: string, reason: string, now: Date = new Date()): Promise<PaymentChanged> =>
  pauseOrResume(merchantId, paymentId, 'resume', reason, now);

/**
 * Pauses (or resumes) every payment of a customer in `from`, newest first, and returns the ids it
 * changed. Each payment is one change of its own (re-read consistently, so the index's eventual
 * consistency cannot mislead it), with its own event; one whose state changed meanwhile (now
 * recovered, already paused, deleted) is skipped rather than failing the rest. Sequential on
 * purpose: every transition also bumps the customer's version, so parallel ones would only
 * collide and retry.
 */
export async function pauseOrResumeAll(merchantId: string, customerId: string, action: 'pause' | 'resume', reason: string): Promise<string[]> {
  const from: readonly PaymentStatus[] = action === 'pause' ? ['pending', 'retrying'] : ['paused'];
  const changed: string[] = [];
  for (const payment of await customerPaymentsIn(merchantId, customerId, from)) {
    try {
      await pauseOrResume(merchantId, payment.id, action, reason, new Date());
      changed.push(payment.id);
    } catch (error) {
      if (!(error instanceof StateConflictError || error instanceof ResourceNotFoundError)) throw error;
    }
  }
  return changed;
}
