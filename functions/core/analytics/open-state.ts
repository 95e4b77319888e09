/**
 * The payments open now, from the COUNT#OPEN counters (`<status>_count` and
 * `<status>_amount_<currency>` for pending, retrying and paused). At risk means a retry is still
 * coming: pending and retrying (the spec's "sums pending and retrying failed payments"). Paused
 * payments get no retry until resumed, so they are reported apart, not as at risk.
 */
export const OPEN_STATUSES = ['pending', 'retrying', 'paused'] as const;
export type OpenStatus = (typeof OPEN_STATUSES)[number];
export const AT_RISK_STATUSES: readonly OpenStatus[] = ['pending', 'retrying'];

export interface OpenFigures {
  readonly count: number;
  readonly amount_by_currency: Readonly<Record<string, number>>;
}

export type OpenState = Readonly<Record<OpenStatus, OpenFigures>>;

function figuresOf(counters: Readonly<Record<string, number>>, status: OpenStatus): OpenFigures {
  const prefix = `${status}_amount_`;
  const amounts = Object.entries(counters)
    .filter(([name, value]) => name.startsWith(prefix) && value !== 0)
    .map(([name, value]) => [name.slice(prefix.length), value] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return { count: counters[`${status}_count`] ?? 0, amount_by_currency: Object.fromEntries(amounts) };
}

/** The open state in the counters of the COUNT#OPEN item (all zeros when it does not exist yet). */
export const openStateOf = (counters: Readonly<Record<string, number>>): OpenState =>
  Object.fromEntries(OPEN_STATUSES.map((status) => [status, figuresOf(counters, status)])) as Record<OpenStatus, OpenFigures>;

/** The figures of several statuses together (amounts per currency, never across). */
export function combine(state: OpenState, statuses: readonly OpenStatus[]): OpenFigures {
  let count = 0;
  const amounts: Record<string, number> = {};
  for (const status of statuses) {
    count += state[status].count;
    for (const [currency, amount] of Object.entries(state[status].amount_by_currency)) amounts[currency] = (amounts[currency] ?? 0) + amount;
  }
  return { count, amount_by_currency: Object.fromEntries(Object.entries(amounts).sort(([a], [b]) => (a < b ? -1 : 1))) };
}
