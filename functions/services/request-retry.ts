import { StateConflictError } from '#core/errors';
import { type PaymentRecord, refuseManualRetry } from '#core/payments';
import { retryForbiddenBy, withinQuietHoursAndCaps } from '#core/retry-policy';
import { gatewayNameFor } from '#data/gateway-config-repository';
import { changePayment, type PaymentChange } from '#data/payment-repository';
import { loadPlanningContext } from '#data/retry-planning';

/**
 * A retry requested through the API (POST /payments/{id}/retry). Nothing is charged here: the
 * request makes the payment's retry due (in the due index), and the retry executor
 * (jobs/execute-due-retries.ts, every minute) attempts it as it attempts every retry: claimed
 * with a lease, counted in the card's ledger, sent with its idempotency key. The executor is
 * the only place that charges, so the API bundles no payment gateway.
 *
 * In one conditional write on fresh state (payment-repository changePayment):
 * 1. 409 `state_conflict` where the spec refuses a retry (recovered, terminal, paused, at
 *    max_retries, a hard_customer decline waiting for a card update, an attempt in flight), within
 *    MANUAL_RETRY_SPACING_MS (5 minutes) of the last attempt or manual request, when no payment
 *    gateway is configured for its provider, when the decline forbids any retry, and while the
 *    card is blocked after a do-not-retry answer. Nothing is written then.
 * 2. Otherwise the retry is due now (`queued`), or, when the merchant's quiet hours or a
 *    card-network cap forbid an attempt now, at the first time they allow (`deferred`); the
 *    executor checks both again when it claims the attempt.
 */
export type RetryRequest =
  | { readonly kind: 'queued'; readonly payment: PaymentRecord; readonly retryNumber: number; readonly dueAt: string; readonly reason: string }
  | { readonly kind: 'deferred'; readonly payment: PaymentRecord; readonly retryNumber: number; readonly dueAt: string; readonly reason: string };

/** Requests a retry of the payment (a `pe_`/`rec_` id) now; see above. */
export async function requestRetry(merchantId: string, paymentId: string, now: Date = new Date()): Promise<RetryRequest> {
  const changed = await changePayment<{ kind: RetryRequest['kind']; retryNumber: number; reason: string }>(
    merchantId,
    paymentId,
    async (before): Promise<PaymentChange<{ kind: RetryRequest['kind']; retryNumber: number; reason: string }>> => {
      refuseManualRetry(before, now);
      const conflict = (why: string): never => {
        throw new StateConflictError(`Cannot retry payment ${before.id}: ${why}.`);
      };
      if ((await gatewayNameFor(merchantId, before.psp)) === undefined) conflict(`no payment gateway is configured for its provider ${before.psp}`);
      const forbidden = retryForbiddenBy(before);
      if (forbidden !== undefined) conflict(forbidden.reason);
      const context = await loadPlanningContext(merchantId, before);
      const reasons: string[] = [];
      const allowed = withinQuietHoursAndCaps(before, context.quietHours, context.card.ledger, now, reasons);
      if (allowed.action !== 'schedule') return conflict(allowed.reason);
      const retryNumber = before.retry_count + 1;
      const deferred = allowed.at.getTime() > now.getTime();
      const reason = deferred
        ? `Retry ${retryNumber} requested through the API, moved to ${allowed.at.toISOString()}: ${allowed.reason}`
        : `Retry ${retryNumber} requested through the API: due now, for the retry executor`;
      return {
        events: [{ type: 'request_retry', at: (deferred ? allowed.at : now).toISOString(), reason }],
        result: { kind: deferred ? 'deferred' : 'queued', retryNumber, reason },
      };
    },
    now,
  );
  const result = changed?.result;
  if (changed === undefined || result === undefined) throw new Error('A retry request always writes or refuses');
  return { kind: result.kind, payment: changed.after, retryNumber: result.retryNumber, dueAt: changed.after.next_retry_at as string, reason: result.reason };
}
