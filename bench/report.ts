import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Usage } from './capacity';
import type { Latency, Timing } from './measure';

export interface SideResult extends Latency, Usage {
  /** Reported when every call reported it, else by the published rules. */
  readonly rcu_per_request: number;
  readonly wcu_per_request: number;
}

export interface SizeResult {
  readonly merchants: number;
  readonly handler: SideResult;
  readonly raw: SideResult;
  /** median(handler) / median(raw). */
  readonly ratio_median: number;
  readonly verdict: 'PASS' | 'ABOVE TARGET';
}

export interface ScenarioResult {
  readonly name: string;
  readonly target: number;
  readonly notes: readonly string[];
  readonly sizes: SizeResult[];
  /** 10N over N: 1.0 means the cost per request does not grow with the data. */
  growth?: Growth;
}

export interface Growth {
  readonly from_merchants: number;
  readonly to_merchants: number;
  readonly calls_per_request: number;
  readonly rcu_per_request: number;
  readonly wcu_per_request: number;
  readonly handler_median: number;
  readonly raw_median: number;
  readonly ratio_median: number;
}

export interface BenchReport {
  readonly generated_at: string;
  readonly machine: { readonly cpus: number; readonly node: string; readonly platform: string };
  readonly timing: Timing;
  readonly capacity_method: string;
  readonly scenarios: ScenarioResult[];
}

const ratio = (a: number, b: number): number => (b === 0 ? (a === 0 ? 1 : Number.POSITIVE_INFINITY) : a / b);

/** The largest size over the smallest; each the mean of its measurements (N before and after 10N). */
export function growthOf(sizes: readonly SizeResult[]): Growth | undefined {
  const small = Math.min(...sizes.map((size) => size.merchants));
  const large = Math.max(...sizes.map((size) => size.merchants));
  if (sizes.length === 0 || small === large) return undefined;
  const mean = (merchants: number, figure: (size: SizeResult) => number): number => {
    const at = sizes.filter((size) => size.merchants === merchants);
    return at.reduce((sum, size) => sum + figure(size), 0) / at.length;
  };
  const growth = (figure: (size: SizeResult) => number): number => ratio(mean(large, figure), mean(small, figure));
  return {
    from_merchants: small,
    to_merchants: large,
    calls_per_request: growth((size) => size.handler.calls_total_per_request),
    rcu_per_request: growth((size) => size.handler.rcu_per_request),
    wcu_per_request: growth((size) => size.handler.wcu_per_request),
    handler_median: growth((size) => size.handler.median_ms),
    raw_median: growth((size) => size.raw.median_ms),
    ratio_median: growth((size) => size.ratio_median),
  };
}

const fixed = (n: number, digits = 2): string => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const callsOf = (side: SideResult): string =>
  Object.entries(side.calls_per_request)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, n]) => `${kind} x${fixed(n, 3)}`)
    .join(', ');

export function formatReport(report: BenchReport): string {
  const lines = [
    `npm run bench: ${report.machine.cpus} CPUs, node ${report.machine.node}; ${report.timing.blocks} alternating blocks x ${report.timing.perBlock} sequential requests per side after ${report.timing.warmup} warm-up calls`,
    `capacity: ${report.capacity_method}`,
  ];
  for (const scenario of report.scenarios) {
    lines.push('', `== ${scenario.name}`);
    const rows = [['merchants', 'side', 'median ms', 'p95 ms', 'calls/req', 'RCU/req', 'WCU/req', 'RCU, WCU by rules']];
    for (const size of scenario.sizes) {
      for (const [name, side] of [
        ['handler', size.handler],
        ['raw', size.raw],
      ] as const) {
        rows.push([
          name === 'handler' ? String(size.merchants) : '',
          name,
          fixed(side.median_ms, 3),
          fixed(side.p95_ms, 3),
          fixed(side.calls_total_per_request, 3),
          fixed(side.rcu_per_request),
          fixed(side.wcu_per_request),
          side.by_rules === null ? 'n/a' : `${fixed(side.by_rules.rcu_per_request)}, ${fixed(side.by_rules.wcu_per_request)}`,
        ]);
      }
    }
    lines.push(table(rows), '');
    for (const size of scenario.sizes) {
      lines.push(`${size.merchants} merchants: median handler/raw = ${fixed(size.ratio_median)} (target <= ${scenario.target}) ${size.verdict}`);
      lines.push(`  handler calls: ${callsOf(size.handler)}`, `  raw calls:     ${callsOf(size.raw)}`);
    }
    const growth = scenario.growth;
    if (growth !== undefined) {
      lines.push(
        `data x${fixed(growth.to_merchants / growth.from_merchants, 0)} (${growth.to_merchants} merchants over the mean of the ${growth.from_merchants}-merchant runs before and after), handler cost ratio: calls ${fixed(growth.calls_per_request)}, RCU ${fixed(growth.rcu_per_request)}, WCU ${fixed(growth.wcu_per_request)} (expected 1.00); median latency handler ${fixed(growth.handler_median)}, raw ${fixed(growth.raw_median)}, handler/raw ${fixed(growth.ratio_median)}`,
      );
    }
    for (const note of scenario.notes) lines.push(`note: ${note}`);
  }
  return lines.join('\n');
}

export function writeReport(report: object, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}
