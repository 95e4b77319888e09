import type { PaymentRecord, Transition } from '#core/payments';
import type { TransactItem } from './customer-repository';
import { outboundEventItem } from './outbound-event-repository';

/** The retry whose answer a change records, when one does: what the change's events say of it. */
export interface ChangeRetry {
  readonly retry_number: number;
  readonly gateway: string;
  /** The gateway's charge, when the retry succeeded. */
  readonly provider_charge_id?: string;
}

/**
 * `recovery.retry_scheduled` for a write that planned the payment's next retry (a `retry_scheduled`
 * timeline entry: the first plan at the failure, after a declined retry or a gateway error, a
 * retry moved by quiet hours or the card caps, a resume, a new card, `POST /payments/{id}/retry`),
 * filed under the customer. `retry` is the attempt whose answer led to it, else null fields.
 */
function retryScheduledItems(after: PaymentRecord, timelines: readonly Transition['timeline'][], retry: ChangeRetry | undefined, now: Date): TransactItem[] {
  if (after.status !== 'retrying' || after.next_retry_at === null || !timelines.some((entry) => entry.type === 'retry_scheduled')) return [];
  const object = {
    payment_id: after.id,
    recovery_id: after.recovery_id,
    retry_number: after.retry_count + 1,
    gateway: retry?.gateway ?? null,
    scheduled_at: after.next_retry_at,
  };
  return [outboundEventItem(after.merchant_id, after.customer_id, ['recovery.retry_scheduled'], object, now)];
}

/** The outcome event of a payment entering `recovered` or `terminal` (see paymentChangeEventItems). */
function outcomeItem(after: PaymentRecord, retry: ChangeRetry | undefined, now: Date): TransactItem {
  const object = { payment_id: after.id, recovery_id: after.recovery_id, retry_number: retry?.retry_number ?? null, gateway: retry?.gateway ?? null };
  const recovered = {
    ...object,
    amount: after.amount,
    currency: after.currency,
    provider_charge_id: retry?.provider_charge_id ?? null,
    recovery_method: after.recovery_method,
  };
  return after.status === 'recovered'
    ? outboundEventItem(after.merchant_id, after.customer_id, ['payment.recovered', 'recovery.succeeded'], recovered, now)
    : outboundEventItem(
        after.merchant_id,
        after.customer_id,
        ['payment.terminal', 'recovery.failed'],
        { ...object, reason: after.state_history.at(-1)?.reason ?? null },
        now,
      );
}

const ends = (payment: PaymentRecord): boolean => payment.status === 'recovered' || payment.status === 'terminal';

/**
 * The events of a payment change (payment-repository changePayment), for its transaction, so that
 * every path records them, whichever service made the change: the outcome when the change ends
 * the recovery (`payment.recovered`/`recovery.succeeded` on entering `recovered`,
 * `payment.terminal`/`recovery.failed` on entering `terminal`: a retry of ours, the provider
 * reporting the payment paid, an ingested cancellation, the policy giving up), else the retry it
 * scheduled. Filed under the customer. `retry` names the attempt whose answer the change records;
 * without one (the provider's own recovery, a termination decided without an attempt) its fields
 * are null.
 */
export function paymentChangeEventItems(
  before: PaymentRecord,
  after: PaymentRecord,
  timelines: readonly Transition['timeline'][],
  retry: ChangeRetry | undefined,
  now: Date,
): TransactItem[] {
  return before.status !== after.status && ends(after) ? [outcomeItem(after, retry, now)] : retryScheduledItems(after, timelines, retry, now);
}

/**
 * The events of a newly recorded failed payment (payment-repository recordFailedPayment), beside
 * the `payment.failed` of the failure itself: `payment.terminal` when its decline forbids any
 * retry, else the retry planned with it.
 */
export function newPaymentEventItems(payment: PaymentRecord, timelines: readonly Transition['timeline'][], now: Date): TransactItem[] {
  return ends(payment) ? [outcomeItem(payment, undefined, now)] : retryScheduledItems(payment, timelines, undefined, now);
}
