import { createHash, createHmac, timingSafeEqual, type BinaryLike, type KeyObject } from 'node:crypto';

/**
 * Shared helpers for the provider webhook modules (functions/webhooks/<psp>.ts). Every signature
 * comparison goes through {@link safeEqual}; additions here must stay additive, since both sets of
 * provider modules import these.
 */

/**
 * Constant-time equality of two strings or buffers. A length mismatch is a refusal (`false`),
 * never a throw, so hostile headers of any length are safe to pass.
 *
 * @example safeEqual(expectedHex, receivedHex) // true only when identical
 */
export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const left = typeof a === 'string' ? Buffer.from(a, 'utf8') : a;
  const right = typeof b === 'string' ? Buffer.from(b, 'utf8') : b;
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}

/** True when `candidate` equals any of `expected` in constant time (rotated secrets, several signatures). */
export const safeEqualAny = (candidates: readonly (string | Buffer)[], expected: string | Buffer): boolean =>
  candidates.reduce<boolean>((found, candidate) => safeEqual(candidate, expected) || found, false);

/** HMAC of `data` keyed by `key`, as lowercase hex. */
export const hmacHex = (algorithm: string, key: BinaryLike | KeyObject, data: BinaryLike): string => createHmac(algorithm, key).update(data).digest('hex');

/** HMAC of `data` keyed by `key`, as standard base64. */
export const hmacBase64 = (algorithm: string, key: BinaryLike | KeyObject, data: BinaryLike): string =>
  createHmac(algorithm, key).update(data).digest('base64');

/** Lowercase hex SHA-256: a stable event id for providers whose bodies carry none. */
export const sha256Hex = (data: BinaryLike): string => createHash('sha256').update(data).digest('hex');

/**
 * Whether a signed unix time (seconds) lies within `toleranceSeconds` of `now`, both ways
 * (stale replays and future-dated ones are refused alike).
 */
export function withinTolerance(signedAtSeconds: number, now: Date, toleranceSeconds: number): boolean {
  if (!Number.isFinite(signedAtSeconds)) return false;
  return Math.abs(now.getTime() / 1000 - signedAtSeconds) <= toleranceSeconds;
}

/** A header by its lowercased name, or undefined when absent or blank. */
export function headerOf(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
