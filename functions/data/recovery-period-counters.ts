import type { PaymentRecord } from '#core/payments';
import {
  type PeriodTotals,
  type RecoveryGoalPeriod,
  type RecoveryProgress,
  EMPTY_TOTALS,
  periodBounds,
  recoveryProgressOf,
  sumTotals,
} from '#core/recovery-goal';
import { batchGetItems } from './batch-get';
import { recoveryCounterKeys } from './keys';
import { PERIOD_COUNTERS } from './projections/recovery-period-counters';

/**
 * Monthly recovery counters (DESIGN §2: analytics read rollups maintained from the table's
 * stream, so reading progress costs the same at any number of payments). One counter item per
 * merchant and month a payment failed in (`created_at`, UTC; a cohort view), written by the
 * table-stream consumer (projections/recovery-period-counters.ts), holding:
 * - `failed_count`, `failed_amount_<currency>`: payments that failed that month;
 * - `recovered_count`, `recovered_amount_<currency>`: those of them recovered since, whenever.
 */
const FAILED_COUNT = PERIOD_COUNTERS.failedCount;
const RECOVERED_COUNT = PERIOD_COUNTERS.recoveredCount;
const FAILED_AMOUNT = PERIOD_COUNTERS.failedAmount;
const RECOVERED_AMOUNT = PERIOD_COUNTERS.recoveredAmount;

/** What the counters read of a payment (any PaymentRecord will do). */
export type CountedPayment = Pick<PaymentRecord, 'merchant_id' | 'created_at' | 'status' | 'amount' | 'currency'>;

/** The totals a month's counter item holds. */
export function totalsOfItem(item: Readonly<Record<string, unknown>> | undefined): PeriodTotals {
  if (item === undefined) return EMPTY_TOTALS;
  const failedAmounts: Record<string, number> = {};
  const recoveredAmounts: Record<string, number> = {};
  for (const [name, value] of Object.entries(item)) {
    if (typeof value !== 'number') continue;
    if (name.startsWith(FAILED_AMOUNT)) failedAmounts[name.slice(FAILED_AMOUNT.length)] = value;
    else if (name.startsWith(RECOVERED_AMOUNT)) recoveredAmounts[name.slice(RECOVERED_AMOUNT.length)] = value;
  }
  return {
    failedCount: typeof item[FAILED_COUNT] === 'number' ? item[FAILED_COUNT] : 0,
    recoveredCount: typeof item[RECOVERED_COUNT] === 'number' ? item[RECOVERED_COUNT] : 0,
    failedAmounts,
    recoveredAmounts,
  };
}

/** The counter items of these months (batchGetItems, consistent). */
async function monthItems(merchantId: string, months: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  const monthOfSk = new Map(months.map((month) => [recoveryCounterKeys.month(merchantId, month).SK, month]));
  const items = await batchGetItems(
    months.map((month) => recoveryCounterKeys.month(merchantId, month)),
    { consistent: true, what: `Recovery counters of ${merchantId}` },
  );
  const byMonth = new Map<string, Record<string, unknown>>();
  for (const item of items) {
    const month = monthOfSk.get(item.SK as string);
    if (month !== undefined) byMonth.set(month, item);
  }
  return byMonth;
}

/**
 * The progress of the calendar month, quarter or year (UTC) containing `now`: one BatchGetItem of
 * its 1, 3 or 12 monthly counter items, whatever the number of payments.
 */
export async function recoveryProgress(merchantId: string, period: RecoveryGoalPeriod, now: Date = new Date()): Promise<RecoveryProgress> {
  const bounds = periodBounds(period, now);
  const items = await monthItems(merchantId, bounds.months);
  return recoveryProgressOf(period, bounds, sumTotals(bounds.months.map((month) => totalsOfItem(items.get(month)))));
}
