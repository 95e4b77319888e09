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
  /** Sum of the open (pending, retrying, paused) failed amounts. */
  readonly atRiskAmount: number;
  readonly recoveredAmount: number;
  /** recovered / failed, by count; 0 without failures. */
  readonly recoveryRate: number;
  /** The one currency of the amounts; null without failures or when they mix currencies. */
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
  const sum = (list: readonly PaymentRecord[]): number => list.reduce((total, payment) => total + payment.amount, 0);
  const currencies = new Set(payments.map((payment) => payment.currency));
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
    atRiskAmount: sum(open),
    recoveredAmount: sum(recovered),
    recoveryRate: payments.length === 0 ? 0 : recovered.length / payments.length,
    currency: currencies.size === 1 ? ([...currencies][0] ?? null) : null,
  };
}
