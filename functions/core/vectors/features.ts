import { DECLINE_CATEGORIES, type DeclineCategory } from '../decline-codes/types';
import { fnv32a } from '../experiments/assign';
import { exponentOf } from '../money';
import { PSPS } from '../providers';
import { RECOVERY_METHODS } from '../recovery-method';

/**
 * The feature vector of a past recovery (issue 15, "Embedding"; docs/vectors.md has the table):
 * built from structured fields only, no text model. Blocks, in order, each scaled by its weight
 * (so that its own norm is the weight when the field is known, 0 when it is not), then the whole
 * L2-normalised, so cosine similarity is a dot product:
 *
 * | block          | dims | encoding                                                         | weight |
 * |----------------|------|------------------------------------------------------------------|--------|
 * | decline code   | 18   | FNV-1a of the lowercased code, one-hot into 18 buckets           | 1.0    |
 * | category       | 4    | one-hot of soft_retry, hard_customer, terminal, unknown          | 1.0    |
 * | amount         | 2    | angle θ = π/2 · min(1, log10(1 + major units) / 6): (cos θ, sin θ) | 1.0    |
 * | currency       | 8    | FNV-1a of the lowercased code, one-hot into 8 buckets            | 0.7    |
 * | segment        | 8    | first_failure, repeat_failure, high_value; others hashed into 5  | 0.7    |
 * | strategy       | 6    | one-hot of the recovery strategies                               | 0.5    |
 * | provider       | 14   | one-hot of the 13 providers, the 14th for any other              | 0.5    |
 * | hour (UTC)     | 2    | (sin, cos) of 2π·hour/24                                         | 0.35   |
 * | weekday (UTC)  | 2    | (sin, cos) of 2π·weekday/7                                       | 0.35   |
 *
 * A field not given (a find-similar query names no strategy, provider or time) leaves its block at
 * zero: it then neither adds to nor takes from any neighbour's score, so the ranking is decided by
 * the fields the query has. The outcome is never part of the vector: it is what neighbours tell.
 */
export const VECTOR_DIMENSION = 64;

/** How a recovery ended, in A's vocabulary (B's `terminal` is `failed`). */
export const VECTOR_OUTCOMES = ['recovered', 'failed', 'pending'] as const;
export type VectorOutcome = (typeof VECTOR_OUTCOMES)[number];

/** What was done to recover it: the recovery methods (core/recovery-method.ts), and `none`. */
export const RECOVERY_STRATEGIES = [...RECOVERY_METHODS, 'none'] as const;
export type RecoveryStrategy = (typeof RECOVERY_STRATEGIES)[number];

/** Segments with a dimension of their own (core/campaigns/failure.ts CUSTOMER_SEGMENTS); others share hashed ones. */
const NAMED_SEGMENTS = ['first_failure', 'repeat_failure', 'high_value'] as const;

/** The structured fields a vector is built from; every one but the decline code and amount may be unknown. */
export interface RecoveryFeatures {
  readonly declineCode: string;
  readonly declineCategory?: DeclineCategory | undefined;
  /** Smallest currency unit. */
  readonly amount: number;
  readonly currency?: string | undefined;
  readonly segment?: string | undefined;
  readonly strategy?: RecoveryStrategy | undefined;
  readonly provider?: string | undefined;
  /** When the payment failed: its UTC hour and weekday are features. */
  readonly failedAt?: Date | undefined;
}

interface Block {
  readonly size: number;
  readonly weight: number;
}

const BLOCKS = {
  declineCode: { size: 18, weight: 1 },
  category: { size: 4, weight: 1 },
  amount: { size: 2, weight: 1 },
  currency: { size: 8, weight: 0.7 },
  segment: { size: 8, weight: 0.7 },
  strategy: { size: 6, weight: 0.5 },
  provider: { size: 14, weight: 0.5 },
  hour: { size: 2, weight: 0.35 },
  weekday: { size: 2, weight: 0.35 },
} as const satisfies Record<string, Block>;

/** Log10 of the largest amount (in major units) told apart from bigger ones: a million. */
const AMOUNT_LOG_CEILING = 6;

const hashBucket = (value: string, buckets: number): number => fnv32a(value.trim().toLowerCase()) % buckets;

/** The position of `value` in the block: a named slot, else a hashed one among the rest. */
function segmentSlot(segment: string): number {
  const named = (NAMED_SEGMENTS as readonly string[]).indexOf(segment.trim().toLowerCase());
  return named >= 0 ? named : NAMED_SEGMENTS.length + hashBucket(segment, BLOCKS.segment.size - NAMED_SEGMENTS.length);
}

const providerSlot = (provider: string): number => {
  const index = (PSPS as readonly string[]).indexOf(provider.trim().toLowerCase());
  return index >= 0 ? index : PSPS.length;
};

/** The amount's angle on a quarter circle: close amounts (on a log scale) have close angles. */
export function amountAngle(amount: number, currency: string | undefined): number {
  const major = Math.max(0, amount) / 10 ** exponentOf(currency ?? 'usd');
  return (Math.PI / 2) * Math.min(1, Math.log10(1 + major) / AMOUNT_LOG_CEILING);
}

/**
 * The L2-normalised feature vector of a recovery.
 *
 * @example featureVector({ declineCode: 'insufficient_funds', declineCategory: 'soft_retry', amount: 4999, currency: 'usd', segment: 'high_value' })
 */
export function featureVector(features: RecoveryFeatures): Float32Array {
  const vector = new Float64Array(VECTOR_DIMENSION);
  let offset = 0;
  const block = (spec: Block, fill: ((set: (slot: number, value: number) => void) => void) | undefined): void => {
    if (fill !== undefined) fill((slot, value) => void (vector[offset + slot] = value * spec.weight));
    offset += spec.size;
  };
  const oneHot = (slot: number) => (set: (slot: number, value: number) => void) => set(slot, 1);
  const cyclic = (fraction: number) => (set: (slot: number, value: number) => void) => {
    set(0, Math.sin(2 * Math.PI * fraction));
    set(1, Math.cos(2 * Math.PI * fraction));
  };
  const { failedAt } = features;

  block(BLOCKS.declineCode, oneHot(hashBucket(features.declineCode, BLOCKS.declineCode.size)));
  block(BLOCKS.category, features.declineCategory === undefined ? undefined : oneHot(DECLINE_CATEGORIES.indexOf(features.declineCategory)));
  const angle = amountAngle(features.amount, features.currency);
  block(BLOCKS.amount, (set) => {
    set(0, Math.cos(angle));
    set(1, Math.sin(angle));
  });
  block(BLOCKS.currency, features.currency === undefined ? undefined : oneHot(hashBucket(features.currency, BLOCKS.currency.size)));
  block(BLOCKS.segment, features.segment === undefined ? undefined : oneHot(segmentSlot(features.segment)));
  block(BLOCKS.strategy, features.strategy === undefined ? undefined : oneHot(RECOVERY_STRATEGIES.indexOf(features.strategy)));
  block(BLOCKS.provider, features.provider === undefined ? undefined : oneHot(providerSlot(features.provider)));
  block(BLOCKS.hour, failedAt === undefined ? undefined : cyclic(failedAt.getUTCHours() / 24));
  block(BLOCKS.weekday, failedAt === undefined ? undefined : cyclic(failedAt.getUTCDay() / 7));

  return normalised(vector);
}

/** `vector` scaled to unit length (a zero vector stays zero). */
export function normalised(vector: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i += 1) sum += (vector[i] as number) ** 2;
  const norm = Math.sqrt(sum);
  const out = new Float32Array(vector.length);
  if (norm === 0) return out;
  for (let i = 0; i < vector.length; i += 1) out[i] = (vector[i] as number) / norm;
  return out;
}

/** Cosine similarity of two vectors of the same dimension (either may be unnormalised). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
