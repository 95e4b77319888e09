import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startBenchStack } from '#bench/stack';

/**
 * `npm run simulate [-- --seed N --payments N --json --chart path]`: starts its own DynamoDB Local
 * (the bench's: in memory, a free port) with the environment the functions read at import, then runs the
 * simulation (simulate.ts) and prints the table (or, with --json, one JSON document) and writes
 * the SVG chart. docs/simulator.md explains the model and the figures.
 */
export const DEFAULT_SEED = 20261125;
export const DEFAULT_PAYMENTS = 100;
export const DEFAULT_CHART = '.local/simulator/recovered-by-day.svg';

/** A bad command line: its message is the whole answer, without a stack. */
class UsageError extends Error {}

function options() {
  try {
    return parseArgs({
      options: {
        seed: { type: 'string', default: String(DEFAULT_SEED) },
        payments: { type: 'string', default: String(DEFAULT_PAYMENTS) },
        json: { type: 'boolean', default: false },
        chart: { type: 'string', default: DEFAULT_CHART },
      },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function main(): Promise<void> {
  const values = options();
  const seed = Number(values.seed);
  const payments = Number(values.payments);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new UsageError('--seed must be a whole number ≥ 0');
  if (!Number.isSafeInteger(payments) || payments < 1 || payments > 100_000) throw new UsageError('--payments must be a whole number from 1 to 100000');
  // The bench's DynamoDB Local (in memory, a free port), table and environment (BENCH_LOG_LEVEL for the functions' logs).
  const stack = await startBenchStack();
  try {
    // The functions read their environment at import: only now may they load.
    const { runSimulation } = await import('./simulate');
    const { chartSvg } = await import('./chart');
    const { formatTable } = await import('./report');
    const report = await runSimulation({ seed, payments });
    const chart = resolve(values.chart);
    mkdirSync(dirname(chart), { recursive: true });
    writeFileSync(chart, chartSvg(report));
    if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else process.stdout.write(`${formatTable(report)}\n\nChart: ${chart}\n`);
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  const usage = error instanceof UsageError ? `${error.message}\nUsage: npm run simulate -- [--seed N] [--payments N] [--json] [--chart path]` : undefined;
  process.stderr.write(`${usage ?? (error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
  process.exitCode = 1;
});
