import { type AmountsByCurrency, sumByCurrency } from './money';
import { isOpen, type PaymentRecord } from './payments';

/** A (spec, Subscription recovery status): the three values of a subscription's recovery status. */
export const SUBSCRIPTION_RECOVERY_STATUSES = ['at_risk', 'recovered', 'unknown'] as const;
export type SubscriptionRecoveryStatus = (typeof SUBSCRIPTION_RECOVERY_STATUSES)[number];

export interface SubscriptionRecoverySummary {
  readonly subscriptionId: string;
  readonly status: SubscriptionRecoveryStatus;
  readonly failedCount: number;
  readonly openCount: number;
  readonly recoveredCount: number;
  readonly terminalCount: number;
  /** The open (pending, retrying, paused) failed amounts in `currency`. */
  readonly atRiskAmount: number;
  /** The recovered amounts in `currency`. */
  readonly recoveredAmount: number;
  /** The open amounts of every currency, never added across currencies. */
  readonly atRiskByCurrency: AmountsByCurrency;
  readonly recoveredByCurrency: AmountsByCurrency;
  /** recovered / failed, by count; 0 without failures. */
  readonly recoveryRate: number;
  /** The currency of the most recent failed payment (by created_at); null without failures. */
  readonly currency: string | null;
}

/**
 * A subscription's recovery status from its failed payments (each one a failed invoice), read
 * literally from the spec's definitions:
 * - `unknown`: no failed payment recorded for the subscription (no failure data);
 * - `recovered`: every failed invoice was recovered;
 * - `at_risk`: anything else, that is at least one failed invoice still open (pending, retrying or
 *   paused) or at least one that ended terminal. A terminal invoice is revenue that will not come
 *   back, so the subscription stays at risk of churn even when nothing is open; its
 *   `total_at_risk` is then 0 and `terminal_invoice_count` says why.
 */
export function summariseSubscription(subscriptionId: string, payments: readonly PaymentRecord[]): SubscriptionRecoverySummary {
  const open = payments.filter((payment) => isOpen(payment.status));
  const recovered = payments.filter((payment) => payment.status === 'recovered');
  const terminal = payments.filter((payment) => payment.status === 'terminal');
  const newest = payments.reduce<PaymentRecord | undefined>(
    (latest, payment) => (latest === undefined || payment.created_at > latest.created_at ? payment : latest),
    undefined,
  );
  const currency = newest?.currency ?? null;
  const atRiskByCurrency = sumByCurrency(open);
  const recoveredByCurrency = sumByCurrency(recovered);
  let status: SubscriptionRecoveryStatus = 'at_risk';
  if (payments.length === 0) status = 'unknown';
  else if (recovered.length === payments.length) status = 'recovered';
  return {
    subscriptionId,
    status,
    failedCount: payments.length,
    openCount: open.length,
    recoveredCount: recovered.length,
    terminalCount: terminal.length,
    atRiskAmount: currency === null ? 0 : (atRiskByCurrency[currency] ?? 0),
    recoveredAmount: currency === null ? 0 : (recoveredByCurrency[currency] ?? 0),
    atRiskByCurrency,
    recoveredByCurrency,
    recoveryRate: payments.length === 0 ? 0 : recovered.length / payments.length,
    currency,
  };
}
