import { ResourceNotFoundError, StateConflictError } from '#core/errors';
import type { PaymentEvent, PaymentStatus } from '#core/payments';
import { customerPaymentsIn } from '#data/customer-queries';
import { applyPaymentEvent } from '#data/payment-repository';

/**
 * Applies one status-machine event to every payment of a customer in `from`, newest first, and
 * returns the ids it changed. Each payment is one transition of its own (re-read consistently, so
 * the index's eventual consistency cannot mislead it); one whose state changed meanwhile (now
 * recovered, already paused, deleted) is skipped rather than failing the rest. Sequential on
 * purpose: every transition also bumps the customer's version, so parallel ones would only
 * collide and retry.
 */
export async function transitionAll(merchantId: string, customerId: string, from: readonly PaymentStatus[], event: PaymentEvent): Promise<string[]> {
  const changed: string[] = [];
  for (const payment of await customerPaymentsIn(merchantId, customerId, from)) {
    try {
      await applyPaymentEvent(merchantId, payment.id, event);
      changed.push(payment.id);
    } catch (error) {
      if (!(error instanceof StateConflictError || error instanceof ResourceNotFoundError)) throw error;
    }
  }
  return changed;
}
