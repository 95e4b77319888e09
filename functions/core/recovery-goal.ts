/**
 * The recovery-rate goal (spec, Settings: B's `target_rate` 0-1 over a `period`) and its progress.
 * Pure: the calendar arithmetic and the figures; the counters are read in
 * functions/data/recovery-period-counters.ts.
 *
 * Progress is a cohort view: a payment counts in the month it failed (its `created_at`, UTC), and
 * once recovered, as recovered in that same month, whenever the recovery happened. A period is
 * the current calendar month, quarter or year in UTC, made of whole months.
 */
export const RECOVERY_GOAL_PERIODS = ['monthly', 'quarterly', 'annual'] as const;
export type RecoveryGoalPeriod = (typeof RECOVERY_GOAL_PERIODS)[number];

/** The period of a merchant that never set one. */
export const DEFAULT_RECOVERY_GOAL_PERIOD: RecoveryGoalPeriod = 'monthly';

const MONTHS_IN: Record<RecoveryGoalPeriod, number> = { monthly: 1, quarterly: 3, annual: 12 };

/** `YYYY-MM` of an instant or ISO timestamp, in UTC: the month a payment counts in. */
export function monthOf(at: Date | string): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a timestamp: ${String(at)}`);
  return date.toISOString().slice(0, 7);
}

export interface PeriodBounds {
  /** First instant of the period (UTC midnight of its first day). */
  readonly start: Date;
  /** First instant after the period (exclusive end). */
  readonly end: Date;
  /** The months of the period, `YYYY-MM`, oldest first (1, 3 or 12). */
  readonly months: readonly string[];
}

/** The calendar month, quarter or year (UTC) that contains `now`. */
export function periodBounds(period: RecoveryGoalPeriod, now: Date): PeriodBounds {
  const size = MONTHS_IN[period];
  const year = now.getUTCFullYear();
  const firstMonth = Math.floor(now.getUTCMonth() / size) * size;
  const start = new Date(Date.UTC(year, firstMonth, 1));
  const end = new Date(Date.UTC(year, firstMonth + size, 1));
  const months = Array.from({ length: size }, (_, index) => monthOf(new Date(Date.UTC(year, firstMonth + index, 1))));
  return { start, end, months };
}

/** What a month's counter item holds: counts, and amounts in the smallest unit by currency. */
export interface PeriodTotals {
  readonly failedCount: number;
  readonly recoveredCount: number;
  readonly failedAmounts: Readonly<Record<string, number>>;
  readonly recoveredAmounts: Readonly<Record<string, number>>;
}

export const EMPTY_TOTALS: PeriodTotals = { failedCount: 0, recoveredCount: 0, failedAmounts: {}, recoveredAmounts: {} };

const addAmounts = (a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> => {
  const sum: Record<string, number> = { ...a };
  for (const [currency, amount] of Object.entries(b)) sum[currency] = (sum[currency] ?? 0) + amount;
  return sum;
};

/** The totals of several months added up. */
export function sumTotals(totals: readonly PeriodTotals[]): PeriodTotals {
  return totals.reduce(
    (sum, month) => ({
      failedCount: sum.failedCount + month.failedCount,
      recoveredCount: sum.recoveredCount + month.recoveredCount,
      failedAmounts: addAmounts(sum.failedAmounts, month.failedAmounts),
      recoveredAmounts: addAmounts(sum.recoveredAmounts, month.recoveredAmounts),
    }),
    EMPTY_TOTALS,
  );
}

/** The progress of a period, as the API returns it. */
export interface RecoveryProgress {
  readonly period: RecoveryGoalPeriod;
  readonly period_start: string;
  readonly period_end: string;
  /** Payments that failed in the period. */
  readonly failed_payments: number;
  /** Of those, the ones recovered so far. */
  readonly recovered_payments: number;
  /** recovered_payments / failed_payments; 0 when nothing failed. */
  readonly recovery_rate: number;
  readonly failed_amounts: Readonly<Record<string, number>>;
  readonly recovered_amounts: Readonly<Record<string, number>>;
}

export function recoveryProgressOf(period: RecoveryGoalPeriod, bounds: PeriodBounds, totals: PeriodTotals): RecoveryProgress {
  return {
    period,
    period_start: bounds.start.toISOString(),
    period_end: bounds.end.toISOString(),
    failed_payments: totals.failedCount,
    recovered_payments: totals.recoveredCount,
    recovery_rate: totals.failedCount === 0 ? 0 : totals.recoveredCount / totals.failedCount,
    failed_amounts: totals.failedAmounts,
    recovered_amounts: totals.recoveredAmounts,
  };
}

/** Whether the progress meets the target (rate ≥ target); null when no target is set. */
export function isOnTrack(targetRate: number | null, progress: Pick<RecoveryProgress, 'recovery_rate'>): boolean | null {
  return targetRate === null ? null : progress.recovery_rate >= targetRate;
}
