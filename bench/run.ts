/**
 * `npm run bench [scenario file names...]`: speed and cost as ratios taken in one run (see
 * bench/README.md). Exits non-zero only when the bench itself fails; a ratio above its target is
 * reported, not failed.
 */
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { CapacityMeter } from './capacity';
import { alternateBlocks, type Timing, warmUp } from './measure';
import { type BenchReport, formatReport, growthOf, type ScenarioResult, type SideResult, writeReport } from './report';
import type { Scenario } from './scenario';
import { startBenchStack } from './stack';

/** Merchants in the table for each measurement: N, 10N, then N again (the extra merchants deleted) so that drift cancels out of the 10N/N ratios. */
// BENCH_MERCHANTS=100 measures at one size only, BENCH_QUICK=1 with short timing: for quick runs while developing.
const SIZES: readonly number[] = process.env.BENCH_MERCHANTS === undefined ? [100, 1000, 100] : process.env.BENCH_MERCHANTS.split(',').map(Number);
const TIMING: Timing = process.env.BENCH_QUICK === '1' ? { warmup: 20, blocks: 4, perBlock: 10 } : { warmup: 200, blocks: 30, perBlock: 30 };
const DEFAULT_TARGET = 1.5;
const OUTPUT = join(__dirname, '..', '.local', 'bench-latest.json');
const BUNDLES_OUTPUT = join(__dirname, '..', '.local', 'bench-bundles.json');
const WEBHOOKS_OUTPUT = join(__dirname, '..', '.local', 'bench-webhooks.json');
const VECTORS_OUTPUT = join(__dirname, '..', '.local', 'bench-vectors.json');
/** Modes measured on their own, not handler vs raw: `bundles` (no table), `webhook-delivery` (the local runtime) and `vectors` (one merchant's 10k and 100k vectors). */
const MODES = ['bundles', 'webhook-delivery', 'vectors'];

async function loadScenarios(only: readonly string[]): Promise<Scenario[]> {
  const folder = join(__dirname, 'scenarios');
  const files = readdirSync(folder)
    .filter((file) => file.endsWith('.ts'))
    .filter((file) => only.length === 0 || only.includes(file.replace(/\.ts$/, '')))
    .sort();
  if (files.length === 0) throw new Error(`No scenario in ${folder}${only.length > 0 ? ` named ${only.join(', ')}` : ''}`);
  const scenarios: Scenario[] = [];
  for (const file of files) {
    const module = (await import(join(folder, file))) as { scenario?: Scenario };
    if (module.scenario === undefined) throw new Error(`bench/scenarios/${file} does not export \`scenario\``);
    scenarios.push(module.scenario);
  }
  return scenarios;
}

async function side(meter: CapacityMeter, label: string, latency: { samples: number; median_ms: number; p95_ms: number }): Promise<SideResult> {
  const usage = await meter.usage(label);
  const capacity = usage.reported ?? usage.by_rules;
  if (capacity === null) throw new Error(`No capacity for "${label}": DynamoDB Local reported none and some call is not a single-item one`);
  return { ...latency, ...usage, ...capacity };
}

async function bench(only: readonly string[]): Promise<BenchReport> {
  // Everything from functions/ (and the scenarios, which import it) only now: it reads the environment at import.
  const { dynamo } = await import('#data/client');
  const { BenchData } = await import('./fixtures');
  const meter = new CapacityMeter(dynamo);
  const scenarios = await loadScenarios(only);
  const results: ScenarioResult[] = scenarios.map((scenario) => ({
    name: scenario.name,
    target: scenario.target ?? DEFAULT_TARGET,
    notes: scenario.notes ?? [],
    sizes: [],
  }));

  const data = await BenchData.create();
  for (const size of SIZES) {
    const seeding = Date.now();
    const fixture = await data.resize(size);
    process.stderr.write(`bench: table resized to ${size} merchants in ${((Date.now() - seeding) / 1000).toFixed(1)} s\n`);
    for (const [index, scenario] of scenarios.entries()) {
      const result = results[index] as ScenarioResult;
      const sides = await scenario.prepare(fixture);
      await warmUp(sides, TIMING.warmup);
      meter.reset();
      const latency = await alternateBlocks({ handler: () => meter.track('handler', sides.handler), raw: () => meter.track('raw', sides.raw) }, TIMING);
      const handler = await side(meter, 'handler', latency.handler);
      const raw = await side(meter, 'raw', latency.raw);
      const ratio = handler.median_ms / raw.median_ms;
      result.sizes.push({ merchants: size, handler, raw, ratio_median: ratio, verdict: ratio <= result.target ? 'PASS' : 'ABOVE TARGET' });
      process.stderr.write(`bench: ${scenario.name} at ${size} merchants measured\n`);
    }
  }
  for (const result of results) result.growth = growthOf(result.sizes);

  const everyReported = results.every((r) => r.sizes.every((s) => s.handler.reported !== null && s.raw.reported !== null));
  dynamo.destroy();
  return {
    generated_at: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version, platform: `${process.platform}-${process.arch}` },
    timing: TIMING,
    capacity_method: everyReported
      ? 'ConsumedCapacity reported by DynamoDB Local (ReturnConsumedCapacity TOTAL, added by an SDK middleware); "by rules" recomputes it from item sizes'
      : "computed from DynamoDB's published rules and the sizes of the items touched (DynamoDB Local did not report ConsumedCapacity for every call)",
    scenarios: results,
  };
}

async function main(): Promise<number> {
  const started = Date.now();
  const only = process.argv.slice(2);
  if (only.includes('bundles')) {
    // Bundles need no table: measured on their own, then any scenarios named with them.
    const { benchBundles, formatBundles } = await import('./bundles');
    const bundles = await benchBundles();
    writeReport(bundles, BUNDLES_OUTPUT);
    process.stdout.write(`${formatBundles(bundles)}\n\nJSON: ${BUNDLES_OUTPUT}\n`);
    if (only.every((name) => name === 'bundles')) return 0;
  }
  const scenarios = only.filter((name) => !MODES.includes(name));
  const stack = await startBenchStack();
  const onSignal = (signal: NodeJS.Signals): void => {
    void stack.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    if (only.includes('vectors')) {
      // Its own measurement (one merchant's 10k and 100k vectors), on the bench's table.
      const { benchVectors, formatVectors } = await import('./vectors');
      const vectors = await benchVectors();
      writeReport(vectors, VECTORS_OUTPUT);
      process.stdout.write(`${formatVectors(vectors)}\n\nJSON: ${VECTORS_OUTPUT}\n`);
      if (scenarios.length === 0 && !only.includes('webhook-delivery')) return 0;
    }
    if (only.includes('webhook-delivery')) {
      // Imported only now, as the scenarios are: it sets the environment the delivery path reads, then loads functions/.
      const { benchWebhookDelivery, formatWebhookDelivery } = await import('./webhook-delivery');
      const webhooks = await benchWebhookDelivery();
      writeReport(webhooks, WEBHOOKS_OUTPUT);
      process.stdout.write(`${formatWebhookDelivery(webhooks)}\n\nJSON: ${WEBHOOKS_OUTPUT}\n`);
      if (scenarios.length === 0) return 0;
    }
    const report = await bench(scenarios);
    writeReport(report, OUTPUT);
    process.stdout.write(`${formatReport(report)}\n\nJSON: ${OUTPUT}; whole run ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    return 0;
  } finally {
    await stack.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
