import { performance } from 'node:perf_hooks';

export interface Latency {
  readonly samples: number;
  readonly median_ms: number;
  readonly p95_ms: number;
}

export interface Timing {
  /** Untimed calls of each side first: JIT, connection pool, caches. */
  readonly warmup: number;
  readonly blocks: number;
  readonly perBlock: number;
}

type Sides<K extends string> = Readonly<Record<K, () => Promise<void>>>;

/** The q-quantile of sorted values, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export function summarise(durations: readonly number[]): Latency {
  const sorted = [...durations].sort((a, b) => a - b);
  return { samples: sorted.length, median_ms: quantile(sorted, 0.5), p95_ms: quantile(sorted, 0.95) };
}

/** Calls each side `count` times, interleaved, without timing them. */
export async function warmUp<K extends string>(sides: Sides<K>, count: number): Promise<void> {
  const runs = Object.values(sides) as Array<() => Promise<void>>;
  for (let i = 0; i < count; i++) for (const run of runs) await run();
}

/**
 * Times every side in alternating blocks of sequential calls (the order of the sides reversed
 * every other block), so that whatever the machine does meanwhile (GC, the JVM of DynamoDB
 * Local compiling, a neighbour's build) falls on all sides alike.
 */
export async function alternateBlocks<K extends string>(sides: Sides<K>, timing: Timing): Promise<Record<K, Latency>> {
  const names = Object.keys(sides) as K[];
  const durations = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let block = 0; block < timing.blocks; block++) {
    const order = block % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const run = sides[name];
      const into = durations.get(name) as number[];
      for (let i = 0; i < timing.perBlock; i++) {
        const started = performance.now();
        await run();
        into.push(performance.now() - started);
      }
    }
  }
  return Object.fromEntries(names.map((name) => [name, summarise(durations.get(name) as number[])])) as Record<K, Latency>;
}
