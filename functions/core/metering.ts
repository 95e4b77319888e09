import type { RollupItem } from './analytics/rollup-item';
import { type AmountsByCurrency, addAmount } from './money';

/**
 * Billing metering of one merchant and one UTC day (the daily `billing-metering` task;
 * docs/daily-jobs.md). Counts may be added across currencies; amounts never are (DESIGN §2c): they
 * are kept per currency, in each currency's smallest unit.
 *
 * - recoveries: payments that became `recovered` that day (whenever they failed), from the
 *   `payment.recovered` events recorded with each recovery;
 * - payments processed: failed payments the service received that day (its unit of work), from
 *   the day's `PAY` rollups.
 */
export interface MeteringRecord {
  readonly merchant_id: string;
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
  readonly recoveries: number;
  readonly recoveries_by_currency: Readonly<Record<string, number>>;
  readonly recovered_amount_by_currency: AmountsByCurrency;
  readonly payments_processed: number;
  readonly payments_processed_by_currency: Readonly<Record<string, number>>;
  readonly processed_amount_by_currency: AmountsByCurrency;
  /** The scheduled time of the run that wrote it (a rerun the same day writes the same). */
  readonly metered_at: string;
}

/** A recovery as its `payment.recovered` event tells it. */
export interface MeteredRecovery {
  readonly payment_id: string;
  readonly amount: number;
  readonly currency: string;
}

/** The recovery an outbound event's object reports, or undefined when the object lacks what metering needs. */
export function meteredRecoveryOf(object: Readonly<Record<string, unknown>>): MeteredRecovery | undefined {
  const { payment_id, amount, currency } = object;
  if (typeof payment_id !== 'string' || typeof amount !== 'number' || !Number.isInteger(amount) || typeof currency !== 'string') return undefined;
  return { payment_id, amount, currency };
}

/**
 * The metering of one day from its recoveries (deduplicated by payment: a payment is recovered at
 * most once) and its `PAY` day rollup items (one per psp, decline and currency: summed per currency).
 *
 * @example meteringOf('merch_1', '2026-11-24', recoveries, rollups, new Date('2026-11-25T08:00:00Z'))
 */
export function meteringOf(
  merchantId: string,
  day: string,
  recoveries: readonly MeteredRecovery[],
  payRollups: readonly RollupItem[],
  now: Date,
): MeteringRecord {
  const byPayment = new Map(recoveries.map((recovery) => [recovery.payment_id, recovery]));
  let recoveredCounts: Record<string, number> = {};
  let recoveredAmounts: AmountsByCurrency = {};
  for (const recovery of byPayment.values()) {
    recoveredCounts = addAmount(recoveredCounts, recovery.currency, 1);
    recoveredAmounts = addAmount(recoveredAmounts, recovery.currency, recovery.amount);
  }
  let processedCounts: Record<string, number> = {};
  let processedAmounts: AmountsByCurrency = {};
  for (const item of payRollups) {
    const currency = item.dims.currency;
    const count = item.counters.failed_count ?? 0;
    if (currency === undefined || item.bucket !== day || count === 0) continue;
    processedCounts = addAmount(processedCounts, currency, count);
    processedAmounts = addAmount(processedAmounts, currency, item.counters.failed_amount ?? 0);
  }
  const total = (counts: Readonly<Record<string, number>>): number => Object.values(counts).reduce((sum, count) => sum + count, 0);
  return {
    merchant_id: merchantId,
    day,
    recoveries: byPayment.size,
    recoveries_by_currency: recoveredCounts,
    recovered_amount_by_currency: recoveredAmounts,
    payments_processed: total(processedCounts),
    payments_processed_by_currency: processedCounts,
    processed_amount_by_currency: processedAmounts,
    metered_at: now.toISOString(),
  };
}

/** The figures of a metering record that add up over days (per currency for amounts). */
export type MeteringTotals = Pick<
  MeteringRecord,
  | 'recoveries'
  | 'recoveries_by_currency'
  | 'recovered_amount_by_currency'
  | 'payments_processed'
  | 'payments_processed_by_currency'
  | 'processed_amount_by_currency'
>;

const addAll = (into: Readonly<Record<string, number>>, more: Readonly<Record<string, number>>): Readonly<Record<string, number>> =>
  Object.entries(more).reduce((sum, [currency, value]) => addAmount(sum, currency, value), into);

/** The totals of several days' metering: counts added, amounts added per currency (never across currencies). */
export function meteringTotals(records: readonly MeteringRecord[]): MeteringTotals {
  return records.reduce<MeteringTotals>(
    (sum, record) => ({
      recoveries: sum.recoveries + record.recoveries,
      recoveries_by_currency: addAll(sum.recoveries_by_currency, record.recoveries_by_currency),
      recovered_amount_by_currency: addAll(sum.recovered_amount_by_currency, record.recovered_amount_by_currency),
      payments_processed: sum.payments_processed + record.payments_processed,
      payments_processed_by_currency: addAll(sum.payments_processed_by_currency, record.payments_processed_by_currency),
      processed_amount_by_currency: addAll(sum.processed_amount_by_currency, record.processed_amount_by_currency),
    }),
    {
      recoveries: 0,
      recoveries_by_currency: {},
      recovered_amount_by_currency: {},
      payments_processed: 0,
      payments_processed_by_currency: {},
      processed_amount_by_currency: {},
    },
  );
}

/** The longest range `metering show` reads at once. */
export const MAX_METERING_RANGE_DAYS = 366;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Whether the text is a real calendar day, `YYYY-MM-DD`. */
export function isCalendarDay(text: string): boolean {
  if (!DAY_PATTERN.test(text)) return false;
  const at = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === text;
}

/** Every day from `from` to `to`, both included (`YYYY-MM-DD`, UTC). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00.000Z`); at <= Date.parse(`${to}T00:00:00.000Z`); at += 86_400_000)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}
