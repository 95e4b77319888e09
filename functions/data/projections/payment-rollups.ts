import { dayOf, hourOf } from '#core/analytics/period';
import type { PaymentRecord } from '#core/payments';
import { countedRecoveryMethodOf, RECOVERY_METHODS } from '#core/recovery-method';
import { ENTITY, type RollupFamily, rollupKeys } from '../keys';
import type { CounterContribution, Projection } from './projection';

/** The fields of a payment item the payment rollups read. */
export type RolledUpPayment = Pick<
  PaymentRecord,
  | 'merchant_id'
  | 'created_at'
  | 'amount'
  | 'currency'
  | 'status'
  | 'psp'
  | 'decline_category'
  | 'decline_code'
  | 'campaign_id'
  | 'recovery_method'
  | 'recovered_at'
  | 'last_attempt_at'
>;

/** Every counter of a PAY or CAMP rollup item, in a fixed order (readers and the recompute list them). */
export const PAYMENT_ROLLUP_COUNTERS: readonly string[] = [
  'failed_count',
  'failed_amount',
  'recovered_count',
  'recovered_amount',
  'terminal_count',
  'terminal_amount',
  ...RECOVERY_METHODS.flatMap((method) => [`recovered_by_${method}_count`, `recovered_by_${method}_amount`]),
];

/**
 * A payment item as the payment rollups read it, or undefined for any other item (or a payment
 * item missing what they need). Items written before recovery attribution lack `recovery_method`
 * and `campaign_id` may be absent: both read as null.
 */
export function rolledUpPaymentOf(item: Readonly<Record<string, unknown>>): RolledUpPayment | undefined {
  if (item.entity !== ENTITY.payment) return undefined;
  const { merchant_id, created_at, amount, currency, status, psp, decline_category } = item;
  if (typeof merchant_id !== 'string' || typeof created_at !== 'string' || typeof amount !== 'number' || typeof currency !== 'string') return undefined;
  if (typeof status !== 'string' || typeof psp !== 'string' || typeof decline_category !== 'string') return undefined;
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  return {
    merchant_id,
    created_at,
    amount,
    currency,
    status: status as PaymentRecord['status'],
    psp,
    decline_category: decline_category as PaymentRecord['decline_category'],
    decline_code: text(item.decline_code),
    campaign_id: text(item.campaign_id),
    recovery_method: text(item.recovery_method) as PaymentRecord['recovery_method'],
    recovered_at: text(item.recovered_at),
    last_attempt_at: text(item.last_attempt_at),
  };
}

/**
 * What one payment adds to the counters of its rollup items, amounts in its own currency's minor
 * unit: it failed (every payment: a failed payment is the unit of recovery), and, once it ended,
 * recovered (by its method, core/recovery-method.ts countedRecoveryMethodOf) or terminal. Open
 * (pending, retrying, paused) is failed − recovered − terminal.
 */
export function paymentRollupCounters(payment: RolledUpPayment): Record<string, number> {
  const recovered = payment.status === 'recovered';
  const terminal = payment.status === 'terminal';
  const counters: Record<string, number> = {
    failed_count: 1,
    failed_amount: payment.amount,
    recovered_count: recovered ? 1 : 0,
    recovered_amount: recovered ? payment.amount : 0,
    terminal_count: terminal ? 1 : 0,
    terminal_amount: terminal ? payment.amount : 0,
  };
  const method = countedRecoveryMethodOf(payment);
  if (method !== null) {
    counters[`recovered_by_${method}_count`] = 1;
    counters[`recovered_by_${method}_amount`] = payment.amount;
  }
  return counters;
}

/**
 * The payment's contributions to the hour and day items of a family, bucketed by its cohort (the
 * UTC hour and day of its `created_at`, when it failed), for one combination of dimensions.
 */
export function cohortContributions(
  payment: RolledUpPayment,
  family: RollupFamily,
  dims: readonly (readonly [name: string, value: string])[],
): CounterContribution[] {
  const failedAt = new Date(payment.created_at);
  if (Number.isNaN(failedAt.getTime())) return [];
  const counters = paymentRollupCounters(payment);
  const values = dims.map(([, value]) => value);
  const dimsMap = Object.fromEntries(dims);
  return [hourOf(failedAt), dayOf(failedAt)].map((bucket) => ({
    key: rollupKeys.item(payment.merchant_id, family, bucket.length > 10 ? 'H' : 'D', bucket, values),
    counters,
    attributes: { entity: ENTITY.rollup, merchant_id: payment.merchant_id, bucket, dims: dimsMap },
  }));
}

/**
 * `PAY` rollups: every payment, by its failure cohort (hour and day of `created_at`), per psp,
 * decline category, decline code ('' when it has none) and currency.
 */
export const paymentRollupsProjection: Projection = (item) => {
  const payment = rolledUpPaymentOf(item);
  if (payment === undefined) return [];
  return cohortContributions(payment, 'PAY', [
    ['psp', payment.psp],
    ['decline_category', payment.decline_category],
    ['decline_code', payment.decline_code ?? ''],
    ['currency', payment.currency],
  ]);
};
