import { getDeclineCode, getDeclineCodeVariations } from '#core/decline-codes/queries';
import { isPsp } from '#core/providers';
import { type CohortTotals, cohortTotals, groupRows } from './cohort';
import type { RollupItem } from './rollup-item';

/**
 * The decline-code distribution of a failure cohort, from PAY rollup items: one row per decline
 * code and category (a code that two providers, or two advice codes, classify differently shows
 * once per category, so every row's figures are of one category). Payments without a decline
 * code are not rows; their count comes apart (`withoutCode`).
 */
export interface DeclineCodeRow {
  readonly decline_code: string;
  readonly category: string;
  /** From the decline catalogue: the entry of the provider with the most occurrences of the code in this category. */
  readonly subcategory: string | null;
  readonly totals: CohortTotals;
}

/** Where a row stands in the order of the list: most occurrences first, then code, then category. */
export interface DeclineCodePosition {
  readonly occurrences: number;
  readonly decline_code: string;
  readonly category: string;
}

export function compareDeclineCodePositions(a: DeclineCodePosition, b: DeclineCodePosition): number {
  if (a.occurrences !== b.occurrences) return b.occurrences - a.occurrences;
  if (a.decline_code !== b.decline_code) return a.decline_code < b.decline_code ? -1 : 1;
  return a.category < b.category ? -1 : a.category > b.category ? 1 : 0;
}

export const positionOf = (row: DeclineCodeRow): DeclineCodePosition => ({
  occurrences: row.totals.count.failed,
  decline_code: row.decline_code,
  category: row.category,
});

/** The catalogue's subcategory of a code in a category, looked up at the providers that reported it, most occurrences first. */
function subcategoryOf(code: string, category: string, occurrencesByPsp: ReadonlyMap<string, number>): string | null {
  const psps = [...occurrencesByPsp].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1)).map(([psp]) => psp);
  for (const psp of psps) {
    const entry = isPsp(psp) ? getDeclineCode(psp, code) : undefined;
    if (entry?.category === category) return entry.subcategory;
  }
  // A platform payment (`ingest`) or a provider without its own entry: the code as another provider defines it.
  return getDeclineCodeVariations(code).find((entry) => entry.category === category)?.subcategory ?? null;
}

/** Every row of the cohort's items, sorted (compareDeclineCodePositions), and the payments without a decline code. */
export function declineCodeRows(rows: readonly RollupItem[]): { readonly rows: DeclineCodeRow[]; readonly withoutCode: CohortTotals } {
  const coded = rows.filter((row) => (row.dims.decline_code ?? '') !== '');
  const groups = groupRows(coded, (row) => JSON.stringify([row.dims.decline_code, row.dims.decline_category]));
  const result: DeclineCodeRow[] = [];
  for (const group of groups.values()) {
    const first = group[0];
    if (first === undefined) continue;
    const code = first.dims.decline_code ?? '';
    const category = first.dims.decline_category ?? 'unknown';
    const byPsp = new Map<string, number>();
    for (const row of group) byPsp.set(row.dims.psp ?? '', (byPsp.get(row.dims.psp ?? '') ?? 0) + (row.counters.failed_count ?? 0));
    result.push({ decline_code: code, category, subcategory: subcategoryOf(code, category, byPsp), totals: cohortTotals(group) });
  }
  result.sort((a, b) => compareDeclineCodePositions(positionOf(a), positionOf(b)));
  return { rows: result, withoutCode: cohortTotals(rows.filter((row) => (row.dims.decline_code ?? '') === '')) };
}
