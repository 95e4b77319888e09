import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A time-ordered id body (ULID layout: 10 characters of milliseconds, 16 of randomness, Crockford
 * base32), so that ids sort by creation time and sort keys built on them list newest first.
 */
export function timeOrderedId(now: Date = new Date()): string {
  let time = now.getTime();
  let head = '';
  for (let i = 0; i < 10; i += 1) {
    head = CROCKFORD.charAt(time % 32) + head;
    time = Math.floor(time / 32);
  }
  const random = randomBytes(16);
  let tail = '';
  for (const byte of random) tail += CROCKFORD.charAt(byte % 32);
  return head + tail;
}

/** The smallest id body of a given millisecond, for key-range bounds on time-ordered ids. */
export function timeOrderedIdFloor(at: Date): string {
  let time = at.getTime();
  let head = '';
  for (let i = 0; i < 10; i += 1) {
    head = CROCKFORD.charAt(time % 32) + head;
    time = Math.floor(time / 32);
  }
  return `${head}${'0'.repeat(16)}`;
}

/** Splits `pe_01J…` into its prefix and body; undefined when the id has another shape. */
export function idBody(id: string, prefix: string): string | undefined {
  if (!id.startsWith(`${prefix}_`)) return undefined;
  const body = id.slice(prefix.length + 1);
  return /^[0-9A-HJKMNP-TV-Z]{26}$/.test(body) ? body : undefined;
}

/**
 * The one rule every path parameter obeys before anything looks it up (the request pipeline
 * applies it to every route): at most MAX_PATH_ID_BYTES of UTF-8, so every key built from it stays
 * far under DynamoDB's key limits (1 KB sort key, 2 KB partition key); no control, format,
 * private-use or unpaired surrogate characters and no whitespace but single or repeated spaces
 * between other characters (providers' references may hold spaces, e.g. Adyen's
 * shopperReference, but every id the service stores is trimmed). A value outside it names
 * nothing that can exist: 404, never a lookup.
 */
export const MAX_PATH_ID_BYTES = 320;

const ID_CHARACTERS = /^[^\p{C}\p{Z}]+(?: +[^\p{C}\p{Z}]+)*$/u;

/** Whether a value can be an id, code or email named in a path (and so stored under one). */
export function isPossibleId(value: string): boolean {
  return value.length > 0 && Buffer.byteLength(value, 'utf8') <= MAX_PATH_ID_BYTES && ID_CHARACTERS.test(value);
}
