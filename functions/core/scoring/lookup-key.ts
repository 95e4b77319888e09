import { approximateUsd } from './amounts';
import type { RetryScoreInput } from './types';

/**
 * The key of the lgbm tier's pre-computed scores: what an offline model scores, coarse enough
 * that a table of a few thousand rows covers the traffic.
 *
 *   <decline code>#<attempt bucket>#<amount bucket>#<currency>     e.g. insufficient_funds#2#10_50#usd
 *
 * - decline code: trimmed, lower case, every run of characters other than a-z and 0-9 made one
 *   `_` (`Insufficient Funds` and `insufficient-funds` are one code), at most 64 characters;
 *   `unknown` when nothing is left. The provider is not part of the key: the model scores codes.
 * - attempt bucket: `1`, `2`, `3`, `4+` (attempt_number, 1-based).
 * - amount bucket, in approximate US dollars (amounts.ts), so ¥5,000 and $5,000 differ:
 *   `under_10`, `10_50`, `50_200`, `200_1000`, `1000_plus` (lower bounds inclusive).
 * - currency: lowercase ISO 4217.
 */
export const ATTEMPT_BUCKETS = ['1', '2', '3', '4+'] as const;
export type AttemptBucket = (typeof ATTEMPT_BUCKETS)[number];

export const AMOUNT_BUCKETS = ['under_10', '10_50', '50_200', '200_1000', '1000_plus'] as const;
export type AmountBucket = (typeof AMOUNT_BUCKETS)[number];

/** Lower bounds in approximate US dollars, one per AMOUNT_BUCKETS entry. */
const AMOUNT_BOUNDS_USD = [0, 10, 50, 200, 1000] as const;

export const MAX_LOOKUP_CODE_LENGTH = 64;

export function normaliseLookupCode(declineCode: string): string {
  const code = declineCode
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_LOOKUP_CODE_LENGTH)
    .replace(/_+$/, '');
  return code === '' ? 'unknown' : code;
}

export const attemptBucketOf = (attemptNumber: number): AttemptBucket =>
  attemptNumber <= 1 ? '1' : attemptNumber === 2 ? '2' : attemptNumber === 3 ? '3' : '4+';

export function amountBucketOf(amountMinor: number, currency: string): AmountBucket {
  const usd = approximateUsd(amountMinor, currency);
  let bucket: AmountBucket = AMOUNT_BUCKETS[0];
  AMOUNT_BOUNDS_USD.forEach((bound, index) => {
    if (usd >= bound) bucket = AMOUNT_BUCKETS[index] as AmountBucket;
  });
  return bucket;
}

export interface LookupKeyParts {
  readonly declineCode: string;
  readonly attemptBucket: AttemptBucket;
  readonly amountBucket: AmountBucket;
  readonly currency: string;
}

/** @example lookupKeyOf({ declineCode: 'Insufficient Funds', attemptBucket: '2', amountBucket: '10_50', currency: 'USD' }) // 'insufficient_funds#2#10_50#usd' */
export const lookupKeyOf = (parts: LookupKeyParts): string =>
  `${normaliseLookupCode(parts.declineCode)}#${parts.attemptBucket}#${parts.amountBucket}#${parts.currency.trim().toLowerCase()}`;

/** The key a scoring request is looked up under. */
export const lookupKeyForInput = (input: RetryScoreInput): string =>
  lookupKeyOf({
    declineCode: input.declineCode,
    attemptBucket: attemptBucketOf(input.attemptNumber),
    amountBucket: amountBucketOf(input.amountCents, input.currency),
    currency: input.currency,
  });
