import type { DeclineCategory } from '#core/decline-codes/types';
import { type AmountsByCurrency, exponentOf } from '#core/money';
import type { PaymentRecord } from '#core/payments';

/**
 * What campaign matching knows of a newly failed payment: the payment's own facts and two of its
 * customer's, as they stood before this failure. Built from a PaymentRecord by `failureOf`.
 */
export interface CampaignFailure {
  readonly amount: number;
  readonly currency: string;
  readonly psp: string;
  readonly decline_code: string | null;
  readonly decline_category: DeclineCategory;
  readonly decline_subcategory: string;
  readonly subscription_id: string | null;
  /** The customer's failed payments recorded before this one (0: its first failure). */
  readonly earlier_failed_count: number;
  /** The customer's lifetime value per currency (successful and recovered payments). */
  readonly lifetime_value_by_currency: AmountsByCurrency;
}

/** What failureOf reads of the customer record (core/customers.ts CustomerRecord). */
export interface FailureCustomer {
  readonly failed_payments: number;
  readonly lifetime_value_by_currency: AmountsByCurrency;
}

/**
 * The facts of a failed payment for matching. `customer` is the customer record; say whether it
 * already counts this payment (`customerIncludesPayment`: true when read after the payment was
 * recorded, as ingest's transaction writes both), so that `earlier_failed_count` counts only
 * earlier failures. Without a customer, the payment is taken as the customer's first failure with
 * no lifetime value.
 *
 * @example failureOf(payment, customerAfterIngest, { customerIncludesPayment: true })
 */
export function failureOf(payment: PaymentRecord, customer?: FailureCustomer, options: { readonly customerIncludesPayment?: boolean } = {}): CampaignFailure {
  const counted = customer === undefined ? 0 : customer.failed_payments - (options.customerIncludesPayment ? 1 : 0);
  return {
    amount: payment.amount,
    currency: payment.currency,
    psp: payment.psp,
    decline_code: payment.decline_code,
    decline_category: payment.decline_category,
    decline_subcategory: payment.decline_subcategory,
    subscription_id: payment.subscription_id,
    earlier_failed_count: Math.max(0, counted),
    lifetime_value_by_currency: customer?.lifetime_value_by_currency ?? {},
  };
}

/**
 * "High value", for the `high_value_churn` trigger and the `high_value` customer segment, in major
 * units of the payment's currency (converted with its ISO 4217 exponent: 500 usd is 50000 cents,
 * 500 jpy is 500 yen): a customer whose lifetime value in the payment's currency reaches
 * HIGH_VALUE_LIFETIME_MAJOR, or a payment of at least HIGH_VALUE_PAYMENT_MAJOR. Amounts of other
 * currencies are never converted or added.
 */
export const HIGH_VALUE_LIFETIME_MAJOR = 500;
export const HIGH_VALUE_PAYMENT_MAJOR = 200;

export function isHighValue(failure: CampaignFailure): boolean {
  const unit = 10 ** exponentOf(failure.currency);
  const lifetime = failure.lifetime_value_by_currency[failure.currency] ?? 0;
  return lifetime >= HIGH_VALUE_LIFETIME_MAJOR * unit || failure.amount >= HIGH_VALUE_PAYMENT_MAJOR * unit;
}

/**
 * Customer segments a filter can name, from what the customer record holds:
 * - `first_failure`: no failed payment of the customer before this one;
 * - `repeat_failure`: at least one before this one;
 * - `high_value`: isHighValue (lifetime value or payment amount, in the payment's currency).
 */
export const CUSTOMER_SEGMENTS = ['first_failure', 'repeat_failure', 'high_value'] as const;
export type CustomerSegment = (typeof CUSTOMER_SEGMENTS)[number];

export function isInSegment(failure: CampaignFailure, segment: CustomerSegment): boolean {
  switch (segment) {
    case 'first_failure':
      return failure.earlier_failed_count === 0;
    case 'repeat_failure':
      return failure.earlier_failed_count >= 1;
    case 'high_value':
      return isHighValue(failure);
  }
}
