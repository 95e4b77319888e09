/**
 * Seeded randomness for the simulator. Two kinds:
 * - a stream (mulberry32) for building the portfolio in one fixed order;
 * - keyed draws (`keyedUniform(seed, ...parts)`): a uniform number fixed by the seed and the key
 *   alone, whatever the order of calls. Every strategy's attempt n of payment i reads the same
 *   draw, so the strategies face the same customers and the same luck (common random numbers),
 *   and a run does not depend on the order the engine happens to attempt payments in.
 */
export type Random = () => number;

/** mulberry32: a small, fast 32-bit generator; the same seed gives the same sequence. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a over the key's text, then mixed by one mulberry32 step: a uniform number in [0, 1). */
export function keyedUniform(seed: number, ...parts: readonly (string | number)[]): number {
  let hash = 0x811c9dc5 ^ seed;
  for (const char of parts.join('|')) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return seededRandom(hash >>> 0)();
}

/** One of `options` with probability proportional to its weight. */
export function weighted<T>(random: Random, options: readonly { readonly weight: number; readonly value: T }[]): T {
  const total = options.reduce((sum, option) => sum + option.weight, 0);
  let pick = random() * total;
  for (const option of options) {
    pick -= option.weight;
    if (pick < 0) return option.value;
  }
  return (options.at(-1) as { value: T }).value;
}

/** An exponential draw with the given mean, from a uniform number. */
export const exponential = (uniform: number, mean: number): number => -Math.log(1 - uniform) * mean;
