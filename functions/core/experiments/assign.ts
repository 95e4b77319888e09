/**
 * Deterministic assignment of a payment to an arm of an A/B test, with GrowthBook's hash
 * (growthbook/growthbook packages/sdk-js/src/util.ts, `hash(seed, value, 2)`): FNV-1a 32-bit
 * applied twice, `fnv32a(fnv32a(seed + value) + '') % 10000 / 10000`, a number in [0, 1) that
 * is the same for the same (seed, value) on every machine and every call. The seed is the test
 * id and the value the payment id, so one payment always lands in the same arm of one test, and
 * the arms of two tests are independent.
 */

/** An arm of a two-variant test: A is the first variant, B the second. */
export const AB_ARMS = ['A', 'B'] as const;
export type AbArm = (typeof AB_ARMS)[number];

/** FNV-1a, 32 bits, over the UTF-16 code units of `text` (as GrowthBook's `hashFnv32a`). */
export function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    // hash * 16777619 (the FNV prime) modulo 2^32, spelled in shifts as the reference does.
    hash += (hash << 1) + (hash << 4) + (hash << 7) + (hash << 8) + (hash << 24);
  }
  return hash >>> 0;
}

/** GrowthBook's hash version 2: a bucket in [0, 1) with a resolution of 1/10,000. */
export const bucketOf = (seed: string, value: string): number => (fnv32a(`${fnv32a(seed + value)}`) % 10000) / 10000;

/**
 * The arm of `paymentId` in test `testId`: A when its bucket is below `trafficSplit` (the share
 * of A, 0-1), else B, as GrowthBook's ranges `[0, split)` and `[split, 1)` do.
 *
 * @example assignArm('abt_01J…', 'pe_01J…', 0.5) // 'A' or 'B', the same on every call
 */
export function assignArm(testId: string, paymentId: string, trafficSplit: number): AbArm {
  return bucketOf(testId, paymentId) < trafficSplit ? 'A' : 'B';
}
