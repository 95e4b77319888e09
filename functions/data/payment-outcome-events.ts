import type { PaymentRecord } from '#core/payments';
import type { TransactItem } from './customer-repository';
import { outboundEventItem } from './outbound-event-repository';

/** The retry whose answer ended a recovery, when one did: what its outcome event says of it. */
export interface OutcomeRetry {
  readonly retry_number: number;
  readonly gateway: string;
  /** The gateway's charge, when the retry succeeded. */
  readonly provider_charge_id?: string;
}

/**
 * The outcome event of a payment change that ends its recovery, for that change's transaction
 * (payment-repository changePayment, so that every path records it: a retry of ours, the
 * provider reporting the payment paid, an ingested cancellation, the policy giving up):
 * `payment.recovered`/`recovery.succeeded` on entering `recovered`, `payment.terminal`/
 * `recovery.failed` on entering `terminal`, filed under the customer. `retry` names the retry
 * that did it; without one (the provider's own recovery, a termination decided without an
 * attempt) its fields are null.
 */
export function outcomeEventItems(before: PaymentRecord, after: PaymentRecord, retry: OutcomeRetry | undefined, now: Date): TransactItem[] {
  if (before.status === after.status || (after.status !== 'recovered' && after.status !== 'terminal')) return [];
  const object = { payment_id: after.id, recovery_id: after.recovery_id, retry_number: retry?.retry_number ?? null, gateway: retry?.gateway ?? null };
  const recovered = {
    ...object,
    amount: after.amount,
    currency: after.currency,
    provider_charge_id: retry?.provider_charge_id ?? null,
    recovery_method: after.recovery_method,
  };
  return [
    after.status === 'recovered'
      ? outboundEventItem(after.merchant_id, after.customer_id, ['payment.recovered', 'recovery.succeeded'], recovered, now)
      : outboundEventItem(
          after.merchant_id,
          after.customer_id,
          ['payment.terminal', 'recovery.failed'],
          { ...object, reason: after.state_history.at(-1)?.reason ?? null },
          now,
        ),
  ];
}
