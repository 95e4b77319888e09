import { auditAuthorisations, type ViolationRule } from './audit';
import { PARAMETERS, type StrategyName } from './parameters';
import type { Portfolio } from './portfolio';
import type { World } from './world';

const DAY_MS = 86_400_000;

export interface StrategyReport {
  readonly name: StrategyName;
  /** Minor units per currency (never summed), and one figure converted at PARAMETERS.usdPerUnit (USD cents). */
  readonly recovered_amount: { readonly by_currency: Readonly<Record<string, number>>; readonly usd_cents_at_fixed_rates: number };
  readonly recovered_count: number;
  readonly recovery_rate: number;
  /** Retries sent (the first failures are not counted). */
  readonly attempts: number;
  readonly attempts_per_recovery: number | null;
  readonly median_days_to_recovery: number | null;
  readonly violations: number;
  readonly violations_by_rule: Readonly<Record<ViolationRule, number>>;
  /** What the violations would cost at the networks' published prices. */
  readonly fees: { readonly amount: number; readonly currency: 'usd' };
  /** Cumulative recovered USD cents at fixed rates, by day of the simulation (index 0 = the first day). */
  readonly cumulative_usd_cents_by_day: readonly number[];
}

export interface SimulationReport {
  readonly seed: number;
  readonly payments: number;
  readonly start: string;
  readonly days: number;
  readonly strategies: readonly StrategyReport[];
}

/** Minor units per major unit (ISO 4217 exponents of the portfolio's currencies). */
const minorPerMajor = (currency: string): number => (currency === 'jpy' ? 1 : 100);

/** An amount in minor units of `currency` as USD cents at the fixed rate (rounded to the cent). */
export function usdCentsOf(amount: number, currency: string): number {
  const rate = PARAMETERS.usdPerUnit[currency];
  if (rate === undefined) throw new Error(`No fixed USD rate for ${currency}`);
  return Math.round((amount / minorPerMajor(currency)) * rate * 100);
}

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function strategyReport(name: StrategyName, portfolio: Portfolio, world: World): StrategyReport {
  const byIndex = new Map(portfolio.payments.map((p) => [p.index, p]));
  const byCurrency: Record<string, number> = {};
  const days = Math.ceil((portfolio.end.getTime() - portfolio.start.getTime()) / DAY_MS);
  const daily = Array.from({ length: days }, () => 0);
  const waits: number[] = [];
  let usd = 0;
  for (const [index, at] of world.recoveries) {
    const payment = byIndex.get(index);
    if (payment === undefined) continue;
    byCurrency[payment.currency] = (byCurrency[payment.currency] ?? 0) + payment.amount;
    const cents = usdCentsOf(payment.amount, payment.currency);
    usd += cents;
    const day = Math.min(days - 1, Math.floor((at.getTime() - portfolio.start.getTime()) / DAY_MS));
    daily[day] = (daily[day] ?? 0) + cents;
    waits.push((at.getTime() - payment.failedAt.getTime()) / DAY_MS);
  }
  let running = 0;
  const cumulative = daily.map((cents) => {
    running += cents;
    return running;
  });
  const attempts = world.authorisations.filter((a) => a.attempt > 0).length;
  const recovered = world.recoveries.size;
  const audit = auditAuthorisations(world.authorisations);
  const middle = median(waits);
  return {
    name,
    recovered_amount: { by_currency: Object.fromEntries(Object.entries(byCurrency).sort(([a], [b]) => a.localeCompare(b))), usd_cents_at_fixed_rates: usd },
    recovered_count: recovered,
    recovery_rate: round(recovered / Math.max(1, portfolio.payments.length), 4),
    attempts,
    attempts_per_recovery: recovered === 0 ? null : round(attempts / recovered, 2),
    median_days_to_recovery: middle === null ? null : round(middle, 2),
    violations: audit.total,
    violations_by_rule: audit.byRule,
    fees: { amount: audit.feesUsdCents, currency: 'usd' },
    cumulative_usd_cents_by_day: cumulative,
  };
}

const money = (cents: number): string => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The human-readable table of a report. */
export function formatTable(report: SimulationReport): string {
  const header = ['strategy', 'recovered (USD at fixed rates)', 'count', 'rate', 'attempts', 'attempts/recovery', 'median days', 'violations', 'fees'];
  const rows = report.strategies.map((s) => [
    s.name,
    money(s.recovered_amount.usd_cents_at_fixed_rates),
    String(s.recovered_count),
    `${(s.recovery_rate * 100).toFixed(1)}%`,
    String(s.attempts),
    s.attempts_per_recovery === null ? '-' : s.attempts_per_recovery.toFixed(2),
    s.median_days_to_recovery === null ? '-' : s.median_days_to_recovery.toFixed(2),
    String(s.violations),
    money(s.fees.amount),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  const currencies = report.strategies.map(
    (s) =>
      `${s.name.padEnd(widths[0] as number)}  ${Object.entries(s.recovered_amount.by_currency)
        .map(([currency, amount]) => `${currency} ${(amount / minorPerMajor(currency)).toFixed(currency === 'jpy' ? 0 : 2)}`)
        .join(', ')}`,
  );
  return [
    `Recovery simulator: seed ${report.seed}, ${report.payments} failed payments from ${report.start.slice(0, 10)}, followed ${report.days} days`,
    '',
    line(header),
    ...rows.map(line),
    '',
    'Recovered per currency (major units):',
    ...currencies,
  ].join('\n');
}
