import { ResourceNotFoundError, StateConflictError } from '#core/errors';
import type { PaymentRecord, PaymentStatus } from '#core/payments';
import { customerPaymentsIn } from '#data/customer-queries';
import { outboundEventItem } from '#data/outbound-event-repository';
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

const identity = (payment: PaymentRecord) => ({ payment_id: payment.id, recovery_id: payment.recovery_id, customer_id: payment.customer_id });

/** pending or retrying → paused; 404 unknown, 409 from any other status. */
export async function pauseRetries(merchantId: string, paymentId: string, reason: string, now: Date = new Date()): Promise<PaymentChanged> {
  const changed = await changePayment(
    merchantId,
    paymentId,
    () => ({
      events: [{ type: 'pause', reason }],
      itemsAfter: (after) => [
        outboundEventItem(
          merchantId,
          after.customer_id,
          ['payment.paused'],
          { ...identity(after), status: after.status, previous_status: after.previous_status, paused_at: after.paused_at, reason },
          new Date(after.updated_at),
        ),
      ],
    }),
    now,
  );
  if (changed === undefined) throw new Error('A pause always writes');
  return changed;
}

/** paused → the status held before the pause (A), its retry planned again; 404 unknown, 409 unless paused. */
export async function resumeRetries(merchantId: string, paymentId: string, reason: string, now: Date = new Date()): Promise<PaymentChanged> {
  const changed = await changePayment(
    merchantId,
    paymentId,
    () => ({
      events: [{ type: 'resume', reason }],
      itemsAfter: (after) => [
        outboundEventItem(
          merchantId,
          after.customer_id,
          ['payment.resumed'],
          { ...identity(after), status: after.status, resumed_at: after.resumed_at, next_retry_at: after.next_retry_at, reason },
          new Date(after.updated_at),
        ),
      ],
    }),
    now,
  );
  if (changed === undefined) throw new Error('A resume always writes');
  return changed;
}

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
  const change = action === 'pause' ? pauseRetries : resumeRetries;
  const changed: string[] = [];
  for (const payment of await customerPaymentsIn(merchantId, customerId, from)) {
    try {
      await change(merchantId, payment.id, reason);
      changed.push(payment.id);
    } catch (error) {
      if (!(error instanceof StateConflictError || error instanceof ResourceNotFoundError)) throw error;
    }
  }
  return changed;
}
