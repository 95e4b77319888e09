import type { PaymentRecord } from '#core/payments';
import { monthOf } from '#core/recovery-goal';
import { ENTITY, recoveryCounterKeys } from '../keys';
import type { Projection } from './projection';

/** Counter names of a month's recovery counter item (read by data/recovery-period-counters.ts). */
export const PERIOD_COUNTERS = {
  failedCount: 'failed_count',
  recoveredCount: 'recovered_count',
  /** Followed by the currency: `failed_amount_usd`. */
  failedAmount: 'failed_amount_',
  recoveredAmount: 'recovered_amount_',
} as const;

/**
 * Monthly recovery counters (`COUNT#MONTH#<YYYY-MM>`, read by the recovery goal's progress), by
 * the month a payment failed in (`created_at`, UTC; a cohort view): every payment counts as
 * failed (1, and its amount in its currency), and as recovered too while its status is
 * `recovered`, so a payment failed in October and recovered in November counts in October.
 */
export const recoveryPeriodProjection: Projection = (item) => {
  if (item.entity !== ENTITY.payment || typeof item.merchant_id !== 'string') return [];
  const payment = item as unknown as Pick<PaymentRecord, 'merchant_id' | 'created_at' | 'status' | 'amount' | 'currency'>;
  const counters: Record<string, number> = {
    [PERIOD_COUNTERS.failedCount]: 1,
    [`${PERIOD_COUNTERS.failedAmount}${payment.currency}`]: payment.amount,
  };
  if (payment.status === 'recovered') {
    counters[PERIOD_COUNTERS.recoveredCount] = 1;
    counters[`${PERIOD_COUNTERS.recoveredAmount}${payment.currency}`] = payment.amount;
  }
  return [{ key: recoveryCounterKeys.month(payment.merchant_id, monthOf(payment.created_at)), counters, attributes: { entity: ENTITY.counters } }];
};
