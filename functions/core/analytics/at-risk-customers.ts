import type { CustomerRecord } from '../customers';
import { type AmountsByCurrency, addAmount } from '../money';
import type { PaymentRecord } from '../payments';

/**
 * At-risk customers: customers with at least one open recovery (a failed payment pending,
 * retrying or paused), in cohorts. Every cohort is a subset of `all`: a customer whose failures
 * are all recovered or terminal is no longer at risk, whatever its history.
 *
 * - `all`: every customer with an open recovery.
 * - `expiring_card`: an open payment declined because the card expired (decline subcategory
 *   `expired`, e.g. Stripe `expired_card`, network code 54). The service never receives card
 *   expiry dates, so a card about to expire cannot be seen coming: this cohort is the customers
 *   whose card has expired already and who must update it (a retry of the old card cannot work).
 * - `repeat_failure`: 2 or more failed payments recorded for the customer (open or not).
 * - `high_value`: in one currency, the customer's lifetime value plus the amount at risk reaches
 *   that currency's {@link HIGH_VALUE_THRESHOLDS} (about USD 500; fixed, no exchange rates).
 */
export const AT_RISK_COHORTS = ['all', 'expiring_card', 'repeat_failure', 'high_value'] as const;
export type AtRiskCohort = (typeof AT_RISK_COHORTS)[number];

/** Failed payments that make a repeat failure. */
export const REPEAT_FAILURE_MIN = 2;

/**
 * The high-value threshold of each accepted currency, in its minor unit (money.ts `exponentOf`:
 * jpy has none, huf keeps two): round amounts near USD 500, fixed so that a customer's cohort
 * does not move with exchange rates. A currency not listed has no threshold (never high value).
 */
export const HIGH_VALUE_THRESHOLDS: Readonly<Record<string, number>> = {
  usd: 50_000,
  eur: 50_000,
  gbp: 40_000,
  cad: 70_000,
  aud: 75_000,
  jpy: 75_000,
  chf: 45_000,
  nzd: 85_000,
  sek: 500_000,
  nok: 500_000,
  dkk: 350_000,
  pln: 200_000,
  czk: 1_200_000,
  huf: 18_000_000,
  ron: 230_000,
  bgn: 90_000,
  hrk: 350_000,
  brl: 250_000,
  mxn: 900_000,
  inr: 4_200_000,
};

/** A customer's open payments, as found in the payments-by-status index. */
export interface OpenExposure {
  readonly customer_id: string;
  readonly open_payment_ids: readonly string[];
  readonly at_risk_by_currency: AmountsByCurrency;
  /** An open payment was declined for an expired card. */
  readonly expired_card: boolean;
  /** created_at of the customer's most recent open payment. */
  readonly latest_failure_at: string;
}

export const isExpiredCardDecline = (payment: Pick<PaymentRecord, 'decline_subcategory'>): boolean => payment.decline_subcategory === 'expired';

/**
 * Open payments grouped by customer, newest customer first (customer ids are time-ordered: the
 * order of GET /customers?has_failed_payment=true and of the open-customer index).
 */
export function exposuresOf(openPayments: readonly PaymentRecord[]): OpenExposure[] {
  const byCustomer = new Map<string, OpenExposure>();
  for (const payment of openPayments) {
    const before = byCustomer.get(payment.customer_id);
    byCustomer.set(payment.customer_id, {
      customer_id: payment.customer_id,
      open_payment_ids: [...(before?.open_payment_ids ?? []), payment.id],
      at_risk_by_currency: addAmount(before?.at_risk_by_currency ?? {}, payment.currency, payment.amount),
      expired_card: (before?.expired_card ?? false) || isExpiredCardDecline(payment),
      latest_failure_at: before === undefined || payment.created_at > before.latest_failure_at ? payment.created_at : before.latest_failure_at,
    });
  }
  return [...byCustomer.values()].sort((a, b) => (a.customer_id < b.customer_id ? 1 : a.customer_id > b.customer_id ? -1 : 0));
}

/** Whether the amount at stake (lifetime value plus at risk) reaches the threshold in one currency. */
export function isHighValue(exposure: OpenExposure, customer: Pick<CustomerRecord, 'lifetime_value_by_currency'>): boolean {
  const currencies = new Set([...Object.keys(exposure.at_risk_by_currency), ...Object.keys(customer.lifetime_value_by_currency)]);
  for (const currency of currencies) {
    const threshold = HIGH_VALUE_THRESHOLDS[currency];
    const atStake = (exposure.at_risk_by_currency[currency] ?? 0) + (customer.lifetime_value_by_currency[currency] ?? 0);
    if (threshold !== undefined && atStake >= threshold) return true;
  }
  return false;
}

/** Every cohort the customer belongs to (always `all` first). */
export function cohortsOf(exposure: OpenExposure, customer: Pick<CustomerRecord, 'failed_payments' | 'lifetime_value_by_currency'>): AtRiskCohort[] {
  return [
    'all',
    ...(exposure.expired_card ? (['expiring_card'] as const) : []),
    ...(customer.failed_payments >= REPEAT_FAILURE_MIN ? (['repeat_failure'] as const) : []),
    ...(isHighValue(exposure, customer) ? (['high_value'] as const) : []),
  ];
}

/** Whether a cohort can be decided from the open payments alone (no customer read). */
export const cohortNeedsCustomer = (cohort: AtRiskCohort): boolean => cohort === 'repeat_failure' || cohort === 'high_value';
