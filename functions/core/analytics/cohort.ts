import type { RollupItem } from './rollup-item';
import { RECOVERY_METHODS, type RecoveryMethod } from '#core/recovery-method';
import { type AnalyticsPeriod, seriesBucketOf, seriesBuckets } from './period';
import { type Ratio, ratio } from './ratio';

/**
 * Failure-cohort arithmetic over PAY and CAMP rollup items (docs/analytics.md): a payment counts
 * in the bucket of its `created_at`, whenever it is recovered or closed. Pure: it takes the items
 * `readRollups` returns (same shape as `RollupItem`) and never reads anything.
 */

/** Figures of a set of payments, all counts or all amounts of one currency. `open` = failed − recovered − terminal. */
export interface CohortFigures {
  readonly failed: number;
  readonly recovered: number;
  readonly terminal: number;
  readonly open: number;
  readonly by_method: Readonly<Record<RecoveryMethod, number>>;
}

/** Counts over every currency, and each currency's own counts and amounts (amounts never cross currencies). */
export interface CohortTotals {
  readonly count: CohortFigures;
  readonly by_currency: Readonly<Record<string, { readonly count: CohortFigures; readonly amount: CohortFigures }>>;
}

const methods = (value: (method: RecoveryMethod) => number): Record<RecoveryMethod, number> =>
  Object.fromEntries(RECOVERY_METHODS.map((method) => [method, value(method)])) as Record<RecoveryMethod, number>;

export const EMPTY_FIGURES: CohortFigures = { failed: 0, recovered: 0, terminal: 0, open: 0, by_method: methods(() => 0) };

/** Figures being summed: mutable, so that summing a period's items allocates per currency, not per item. */
type FiguresSum = { failed: number; recovered: number; terminal: number; open: number; by_method: Record<RecoveryMethod, number> };

const newSum = (): FiguresSum => ({ failed: 0, recovered: 0, terminal: 0, open: 0, by_method: methods(() => 0) });

interface CounterNames {
  readonly failed: string;
  readonly recovered: string;
  readonly terminal: string;
  readonly by_method: ReadonlyArray<readonly [RecoveryMethod, string]>;
}

const counterNamesOf = (unit: 'count' | 'amount'): CounterNames => ({
  failed: `failed_${unit}`,
  recovered: `recovered_${unit}`,
  terminal: `terminal_${unit}`,
  by_method: RECOVERY_METHODS.map((method) => [method, `recovered_by_${method}_${unit}`] as const),
});

/** The counter names of each unit, spelled once rather than for every item. */
const COUNTER_NAMES: Readonly<Record<'count' | 'amount', CounterNames>> = { count: counterNamesOf('count'), amount: counterNamesOf('amount') };

/** Adds an item's counters of one unit to a sum. `open` = failed − recovered − terminal. */
function addCounters(sum: FiguresSum, counters: Readonly<Record<string, number>>, unit: 'count' | 'amount'): void {
  const names = COUNTER_NAMES[unit];
  const failed = counters[names.failed] ?? 0;
  const recovered = counters[names.recovered] ?? 0;
  const terminal = counters[names.terminal] ?? 0;
  sum.failed += failed;
  sum.recovered += recovered;
  sum.terminal += terminal;
  sum.open += failed - recovered - terminal;
  for (const [method, name] of names.by_method) sum.by_method[method] += counters[name] ?? 0;
}

/** The totals of some rollup items (each carries a `currency` dimension). */
export function cohortTotals(rows: readonly RollupItem[]): CohortTotals {
  const count = newSum();
  const byCurrency: Record<string, { count: FiguresSum; amount: FiguresSum }> = {};
  for (const row of rows) {
    const currency = row.dims.currency ?? '';
    byCurrency[currency] ??= { count: newSum(), amount: newSum() };
    const sums = byCurrency[currency];
    addCounters(count, row.counters, 'count');
    addCounters(sums.count, row.counters, 'count');
    addCounters(sums.amount, row.counters, 'amount');
  }
  const sorted = Object.fromEntries(Object.entries(byCurrency).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { count, by_currency: sorted };
}

/** The currency amounts are reported in when none is asked for, and when nothing failed. */
export const FALLBACK_CURRENCY = 'usd';

/**
 * The reporting currency: the one asked for, else the currency with the most failed payments
 * (ties: alphabetical), else `usd` when nothing failed.
 */
export function reportingCurrency(totals: CohortTotals, requested?: string): string {
  if (requested !== undefined) return requested;
  let best = FALLBACK_CURRENCY;
  let most = 0;
  for (const [currency, figures] of Object.entries(totals.by_currency)) {
    if (figures.count.failed > most) {
      best = currency;
      most = figures.count.failed;
    }
  }
  return best;
}

/** The amounts of one currency (zeros when it has no payments here). */
export const amountsIn = (totals: CohortTotals, currency: string): CohortFigures => totals.by_currency[currency]?.amount ?? EMPTY_FIGURES;

/** One amount figure per currency, e.g. `{ eur: 1200, usd: 4999 }`. */
export const amountByCurrency = (totals: CohortTotals, pick: (amount: CohortFigures) => number): Record<string, number> =>
  Object.fromEntries(Object.entries(totals.by_currency).map(([currency, figures]) => [currency, pick(figures.amount)]));

/**
 * The two recovery rates of docs/analytics.md, by count and by amount:
 * `attempted` = recovered / failed; `closed` = recovered / (recovered + terminal).
 */
export interface RecoveryRates {
  readonly attempted: { readonly by_count: Ratio; readonly by_amount: Ratio };
  readonly closed: { readonly by_count: Ratio; readonly by_amount: Ratio };
}

export const recoveryRates = (count: CohortFigures, amount: CohortFigures): RecoveryRates => ({
  attempted: { by_count: ratio(count.recovered, count.failed), by_amount: ratio(amount.recovered, amount.failed) },
  closed: { by_count: ratio(count.recovered, count.recovered + count.terminal), by_amount: ratio(amount.recovered, amount.recovered + amount.terminal) },
});

/** The items whose dimensions hold every given value (undefined: no filter on that dimension). */
export const rowsMatching = (rows: readonly RollupItem[], filter: Readonly<Record<string, string | undefined>>): RollupItem[] =>
  rows.filter((row) => Object.entries(filter).every(([name, value]) => value === undefined || row.dims[name] === value));

/** The items grouped by a key of theirs, in first-seen order. */
export function groupRows(rows: readonly RollupItem[], keyOf: (row: RollupItem) => string): Map<string, RollupItem[]> {
  const groups = new Map<string, RollupItem[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [row]);
    else group.push(row);
  }
  return groups;
}

/** The totals of every series bucket of the period, in order; buckets without items have zero totals. */
export function cohortSeries(rows: readonly RollupItem[], period: AnalyticsPeriod): Array<{ readonly bucket: string; readonly totals: CohortTotals }> {
  const groups = groupRows(rows, (row) => seriesBucketOf(row.bucket, period.group_by));
  return seriesBuckets(period).map((bucket) => ({ bucket, totals: cohortTotals(groups.get(bucket) ?? []) }));
}
