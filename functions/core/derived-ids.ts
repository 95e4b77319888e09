import { createHash } from 'node:crypto';
import { timeOrderedIdFloor } from './ids';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * An id body derived from what it names rather than drawn at random, shaped like every id body
 * (ids.ts: 26 Crockford characters): the first 10 are the time `at` (so such ids still sort by
 * it), the last 16 a SHA-256 digest of `parts`. The same parts always give the same body, so a
 * conditional put on a key built from it writes an item once however often it is asked.
 *
 * @example derivedIdBody(new Date('2026-12-01T00:00:00Z'), 'cust_01…', 'card_expiring:2026-12')
 */
export function derivedIdBody(at: Date, ...parts: readonly string[]): string {
  const digest = createHash('sha256').update(parts.join('\n')).digest();
  let tail = '';
  for (let i = 0; i < 16; i += 1) tail += CROCKFORD.charAt((digest[i] as number) % 32);
  return `${timeOrderedIdFloor(at).slice(0, 10)}${tail}`;
}
