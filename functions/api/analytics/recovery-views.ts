import {
  type CohortFigures,
  type CohortTotals,
  amountByCurrency,
  amountsIn,
  cohortSeries,
  cohortTotals,
  groupRows,
  recoveryRates,
  reportingCurrency,
} from '#core/analytics/cohort';
import type { RollupItem } from '#core/analytics/rollup-item';
import type { AnalyticsPeriod } from '#core/analytics/period';
import { RECOVERY_METHODS, type RecoveryMethod } from '#core/recovery-method';
import { DECLINE_CATEGORIES } from '#core/decline-codes/types';
import type { DeclineCodeRow } from '#core/analytics/decline-code-rows';

/** Response pieces of the recovery analytics routes, from cohort totals (core/analytics/cohort.ts). */

/** Counts (every currency), amounts in the reporting currency and per currency, and the rates. */
export function cohortBlockView(totals: CohortTotals, currency: string) {
  const amount = amountsIn(totals, currency);
  const rates = recoveryRates(totals.count, amount);
  return {
    total_failed: totals.count.failed,
    total_recovered: totals.count.recovered,
    total_terminal: totals.count.terminal,
    total_pending: totals.count.open,
    recovery_rate: rates.attempted.by_count.rate,
    total_failed_amount: amount.failed,
    total_recovered_amount: amount.recovered,
    total_terminal_amount: amount.terminal,
    total_pending_amount: amount.open,
    total_failed_amount_by_currency: amountByCurrency(totals, (figures) => figures.failed),
    total_recovered_amount_by_currency: amountByCurrency(totals, (figures) => figures.recovered),
    total_terminal_amount_by_currency: amountByCurrency(totals, (figures) => figures.terminal),
    total_pending_amount_by_currency: amountByCurrency(totals, (figures) => figures.open),
    rates,
  };
}

/** One bucket of a time series: kept lean (an hourly series over two years has 17,544 of them). */
export function seriesPointView(bucket: string, totals: CohortTotals, currency: string) {
  const amount = amountsIn(totals, currency);
  return {
    bucket,
    total_failed: totals.count.failed,
    total_recovered: totals.count.recovered,
    total_terminal: totals.count.terminal,
    total_pending: totals.count.open,
    recovery_rate: recoveryRates(totals.count, amount).attempted.by_count.rate,
    total_failed_amount: amount.failed,
    total_recovered_amount: amount.recovered,
    failed_amount_by_currency: amountByCurrency(totals, (figures) => figures.failed),
    recovered_amount_by_currency: amountByCurrency(totals, (figures) => figures.recovered),
  };
}

export const seriesView = (series: ReadonlyArray<{ readonly bucket: string; readonly totals: CohortTotals }>, currency: string) =>
  series.map((point) => seriesPointView(point.bucket, point.totals, currency));

export function recoveredByMethodView(totals: CohortTotals, currency: string) {
  const amount = amountsIn(totals, currency);
  return Object.fromEntries(
    RECOVERY_METHODS.map((method) => [
      method,
      {
        count: totals.count.by_method[method],
        amount: amount.by_method[method],
        amount_by_currency: amountByCurrency(totals, (figures) => figures.by_method[method]),
      },
    ]),
  ) as Record<RecoveryMethod, { count: number; amount: number; amount_by_currency: Record<string, number> }>;
}

const currencyFiguresView = (figures: { readonly count: CohortFigures; readonly amount: CohortFigures }) => ({
  failed_count: figures.count.failed,
  failed_amount: figures.amount.failed,
  recovered_count: figures.count.recovered,
  recovered_amount: figures.amount.recovered,
  terminal_count: figures.count.terminal,
  terminal_amount: figures.amount.terminal,
  pending_count: figures.count.open,
  pending_amount: figures.amount.open,
  rates: recoveryRates(figures.count, figures.amount),
});

export const byCurrencyView = (totals: CohortTotals) =>
  Object.fromEntries(Object.entries(totals.by_currency).map(([currency, figures]) => [currency, currencyFiguresView(figures)]));

/** A's by_category row. */
export function categoryRowView(category: string, totals: CohortTotals, currency: string) {
  const amount = amountsIn(totals, currency);
  const rates = recoveryRates(totals.count, amount);
  return {
    category,
    failures: totals.count.failed,
    recovered: totals.count.recovered,
    terminal: totals.count.terminal,
    pending: totals.count.open,
    recovery_rate: rates.attempted.by_count.rate,
    recovered_amount: amount.recovered,
    failed_amount: amount.failed,
    recovered_amount_by_currency: amountByCurrency(totals, (figures) => figures.recovered),
    failed_amount_by_currency: amountByCurrency(totals, (figures) => figures.failed),
    rates,
  };
}

export function declineCodeRowView(row: DeclineCodeRow, currency: string) {
  const amount = amountsIn(row.totals, currency);
  const rates = recoveryRates(row.totals.count, amount);
  return {
    decline_code: row.decline_code,
    category: row.category,
    subcategory: row.subcategory,
    occurrences: row.totals.count.failed,
    recovered: row.totals.count.recovered,
    terminal: row.totals.count.terminal,
    pending: row.totals.count.open,
    recovery_rate: rates.attempted.by_count.rate,
    total_amount: amount.failed,
    total_amount_by_currency: amountByCurrency(row.totals, (figures) => figures.failed),
    recovered_amount: amount.recovered,
    recovered_amount_by_currency: amountByCurrency(row.totals, (figures) => figures.recovered),
    rates,
  };
}

/** The body of GET /analytics/recovery: A's fields, B's where they do not collide, and ours (docs/analytics.md). */
export function recoveryAnalyticsView(rows: readonly RollupItem[], period: AnalyticsPeriod, requestedCurrency: string | undefined) {
  const totals = cohortTotals(rows);
  const currency = reportingCurrency(totals, requestedCurrency);
  const byCategory = groupRows(rows, (row) => row.dims.decline_category ?? 'unknown');
  const categories = DECLINE_CATEGORIES.map((category) => categoryRowView(category, cohortTotals(byCategory.get(category) ?? []), currency));
  const periodView = { start_date: period.start_date, end_date: period.end_date, group_by: period.group_by };
  return {
    summary: {
      ...cohortBlockView(totals, currency),
      currency,
      recovered_by_method: recoveredByMethodView(totals, currency),
      by_currency: byCurrencyView(totals),
    },
    by_category: categories,
    by_category_keyed: Object.fromEntries(categories.map((row) => [row.category, { count: row.failures, recovered: row.recovered, rate: row.recovery_rate }])),
    period: periodView,
    meta: periodView,
    currency,
    series: seriesView(cohortSeries(rows, period), currency),
  };
}
