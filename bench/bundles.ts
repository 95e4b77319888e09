/**
 * `npm run bench -- bundles`: every function's bundle against a bundle of the DynamoDB client
 * alone (DESIGN §2: at most 1.6x its size, and at most 1.3x its module load), measured side by
 * side in one run. Bundles are built as GroupFunction builds them (lib/function-bundles.ts); a
 * module load is a fresh `node` process requiring the bundle, timed inside that process, in
 * alternating rounds with the bare bundle; the load ratio is the median of the rounds' paired
 * ratios (each function load over the bare load next to it in time), so that machine noise, which
 * comes and goes over seconds, falls on both sides of each ratio alike.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BARE_DYNAMODB_CLIENT, bundleFunction, functionEntries, PROJECT_ROOT } from '#lib/function-bundles';

const SIZE_TARGET = 1.6;
const LOAD_TARGET = 1.3;
const ROUNDS = 15;
const OUTPUT_DIR = path.join(PROJECT_ROOT, '.local', 'bundles');

/** What module-scope code reads at load; the values only have to be well-formed. */
const LOAD_ENV = {
  ...process.env,
  TABLE_NAME: 'bench-bundles',
  AWS_REGION: 'us-east-1',
  CURSOR_SIGNING_SECRET: 'x'.repeat(32),
  AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1',
};

/** Milliseconds to require the file in a fresh process (the process's own start excluded). */
function loadMs(file: string): number {
  const script = `const t=process.hrtime.bigint();require(${JSON.stringify(file)});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`;
  const run = spawnSync(process.execPath, ['-e', script], { env: LOAD_ENV, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`loading ${file} failed: ${run.stderr}`);
  return Number(run.stdout);
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export interface BundleRow {
  readonly function: string;
  readonly bytes: number;
  readonly size_ratio: number;
  readonly load_ms: number;
  readonly load_ratio: number;
  readonly verdict: 'PASS' | 'ABOVE TARGET';
}

export async function benchBundles(): Promise<{ bare: { bytes: number; load_ms: number }; rows: BundleRow[] }> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const write = (name: string, code: string): string => {
    const file = path.join(OUTPUT_DIR, `${name}.cjs`);
    writeFileSync(file, code);
    return file;
  };
  const bareCode = (await bundleFunction({ stdin: BARE_DYNAMODB_CLIENT })).code;
  const bare = write('bare-dynamodb-client', bareCode);
  const bareBytes = Buffer.byteLength(bareCode);
  const rows: BundleRow[] = [];
  const bareLoads: number[] = [];
  // Warm the file cache and the machine, so that the first function measured is not the slowest.
  for (let round = 0; round < 5; round += 1) loadMs(bare);
  for (const entry of functionEntries()) {
    const { code } = await bundleFunction(entry);
    const file = write(`${entry.kind}-${entry.name}`, code);
    const loads: number[] = [];
    const pairedRatios: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which goes first, so that a trend on the machine favours neither.
      let bareLoad: number;
      let load: number;
      if (round % 2 === 0) {
        bareLoad = loadMs(bare);
        load = loadMs(file);
      } else {
        load = loadMs(file);
        bareLoad = loadMs(bare);
      }
      bareLoads.push(bareLoad);
      loads.push(load);
      pairedRatios.push(load / bareLoad);
    }
    const bytes = Buffer.byteLength(code);
    const sizeRatio = bytes / bareBytes;
    const loadRatio = median(pairedRatios);
    rows.push({
      function: `${entry.kind}:${entry.name}`,
      bytes,
      size_ratio: sizeRatio,
      load_ms: median(loads),
      load_ratio: loadRatio,
      verdict: sizeRatio <= SIZE_TARGET && loadRatio <= LOAD_TARGET ? 'PASS' : 'ABOVE TARGET',
    });
    process.stderr.write(`bench: bundle ${entry.kind}:${entry.name} measured\n`);
  }
  return { bare: { bytes: bareBytes, load_ms: median(bareLoads) }, rows };
}

export function formatBundles(report: Awaited<ReturnType<typeof benchBundles>>): string {
  const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
  const lines = [
    `Bundles vs the bare DynamoDB client (${kb(report.bare.bytes)}, load ${report.bare.load_ms.toFixed(1)} ms); targets: size <= ${SIZE_TARGET}x, load <= ${LOAD_TARGET}x`,
    '',
    '| function | bundle | size ratio | load | load ratio | verdict |',
    '|---|---|---|---|---|---|',
    ...report.rows.map(
      (row) =>
        `| ${row.function} | ${kb(row.bytes)} | ${row.size_ratio.toFixed(2)} | ${row.load_ms.toFixed(1)} ms | ${row.load_ratio.toFixed(2)} | ${row.verdict} |`,
    ),
  ];
  return lines.join('\n');
}
