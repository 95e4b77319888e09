import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { PaymentRecord } from '#core/payments';
import {
  type PeriodTotals,
  type RecoveryGoalPeriod,
  type RecoveryProgress,
  EMPTY_TOTALS,
  monthOf,
  periodBounds,
  recoveryProgressOf,
  sumTotals,
} from '#core/recovery-goal';
import { env } from '#shared/env';
import { documentClient } from './client';
import { type TransactItem, counterUpdate } from './customer-repository';
import { recoveryCounterKeys } from './keys';

/**
 * Monthly recovery counters (DESIGN §2: analytics read rollups maintained on each state change,
 * so reading progress costs the same at any number of payments). One counter item per merchant
 * and month a payment failed in (`created_at`, UTC; a cohort view), holding:
 * - `failed_count`, `failed_amount_<currency>`: payments that failed that month;
 * - `recovered_count`, `recovered_amount_<currency>`: those of them recovered since, whenever.
 */
const FAILED_COUNT = 'failed_count';
const RECOVERED_COUNT = 'recovered_count';
const FAILED_AMOUNT = 'failed_amount_';
const RECOVERED_AMOUNT = 'recovered_amount_';

/** What the counters read of a payment (any PaymentRecord will do). */
export type CountedPayment = Pick<PaymentRecord, 'merchant_id' | 'created_at' | 'status' | 'amount' | 'currency'>;

/**
 * The counter writes a payment's change makes, to add to the transaction that writes the payment:
 * - created (`before` undefined): one more failed payment and its amount in its currency;
 * - becoming recovered (not recovered before, recovered after): one more recovered and its amount;
 * - both when a payment is created already recovered; nothing for any other change.
 * Always in the month of the payment's `created_at`, so a payment failed in October and recovered
 * in November counts in October.
 *
 * @example items.push(...periodCounterUpdates(before, after));
 */
export function periodCounterUpdates(before: Pick<PaymentRecord, 'status'> | undefined, after: CountedPayment): TransactItem[] {
  const deltas: Record<string, number> = {};
  if (before === undefined) {
    deltas[FAILED_COUNT] = 1;
    deltas[`${FAILED_AMOUNT}${after.currency}`] = after.amount;
  }
  if (before?.status !== 'recovered' && after.status === 'recovered') {
    deltas[RECOVERED_COUNT] = 1;
    deltas[`${RECOVERED_AMOUNT}${after.currency}`] = after.amount;
  }
  if (Object.keys(deltas).length === 0) return [];
  return [counterUpdate(recoveryCounterKeys.month(after.merchant_id, monthOf(after.created_at)), deltas)];
}

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

const MAX_BATCH_ATTEMPTS = 8;

/** The counter items of these months (BatchGetItem, consistent; unprocessed keys are asked again). */
async function monthItems(merchantId: string, months: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  const byMonth = new Map<string, Record<string, unknown>>();
  const monthOfSk = new Map(months.map((month) => [recoveryCounterKeys.month(merchantId, month).SK, month]));
  let keys: Record<string, unknown>[] = months.map((month) => ({ ...recoveryCounterKeys.month(merchantId, month) }));
  for (let attempt = 1; keys.length > 0; attempt += 1) {
    if (attempt > MAX_BATCH_ATTEMPTS) throw new Error(`Recovery counters of ${merchantId} still unprocessed after ${MAX_BATCH_ATTEMPTS} attempts`);
    if (attempt > 1) await new Promise((done) => setTimeout(done, 2 ** attempt * 10));
    const response = await documentClient.send(new BatchGetCommand({ RequestItems: { [env.TABLE_NAME]: { Keys: keys, ConsistentRead: true } } }));
    for (const item of response.Responses?.[env.TABLE_NAME] ?? []) {
      const month = monthOfSk.get(item.SK as string);
      if (month !== undefined) byMonth.set(month, item);
    }
    keys = (response.UnprocessedKeys?.[env.TABLE_NAME]?.Keys ?? []) as Record<string, unknown>[];
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
