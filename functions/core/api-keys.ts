import { createHash, randomBytes } from 'node:crypto';
import { SCOPES, type Scope } from '../api/route-types';
import { ValidationError } from './errors';
import type { ApiKeyRecord } from './merchants';

/**
 * API keys (DESIGN §1): `rk_live_<base62 of 32 random bytes>` or `rk_test_...`. Only the SHA-256
 * hash is stored, so authentication is a lookup by hash and no stored secret is ever compared.
 */
export const API_KEY_MODES = ['live', 'test'] as const;
export type ApiKeyMode = (typeof API_KEY_MODES)[number];

const KEY_BYTES = 32;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Characters needed for any value of `bytes` bytes: ceil(8 * bytes / log2(62)); 43 for 32 bytes. */
const base62Length = (bytes: number): number => Math.ceil((8 * bytes) / Math.log2(62));
const API_KEY_PATTERN = /^rk_(live|test)_[0-9A-Za-z]{43,}$/;
/** Characters of the key kept for display: `rk_live_` plus four random characters. */
const DISPLAY_PREFIX_LENGTH = 12;

export class InvalidScopeError extends ValidationError {}

/**
 * Base62 of the bytes read as one big-endian integer, left-padded with `0` to a fixed length.
 * A change of radix is a bijection, so every byte string keeps all its entropy; the modulo bias of
 * mapping each byte to `byte % 62` does not arise.
 *
 * @example encodeBase62(Uint8Array.of(1, 0)) // '048': 256 = 4 * 62 + 8, padded to the 3 characters any 2 bytes need
 */
export function encodeBase62(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let digits = '';
  while (value > 0n) {
    digits = BASE62.charAt(Number(value % 62n)) + digits;
    value /= 62n;
  }
  return digits.padStart(base62Length(bytes.length), '0');
}

/**
 * A new API key, shown to its owner once and never stored.
 *
 * @example generateApiKey('test') // 'rk_test_4Jd…' (51 characters)
 */
export function generateApiKey(mode: ApiKeyMode): string {
  return `rk_${mode}_${encodeBase62(randomBytes(KEY_BYTES))}`;
}

/** SHA-256 hex of the key: the only form in which a key is stored or looked up. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether a presented credential has the shape of a key (checked before any lookup). */
export function looksLikeApiKey(key: string): boolean {
  return API_KEY_PATTERN.test(key);
}

/** The parts of a key that may be shown again later, to tell keys apart. */
export function displayPartsOf(key: string): { prefix: string; last4: string } {
  return { prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), last4: key.slice(-4) };
}

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** The scopes a set of held scopes amounts to: admin implies every scope, write implies read. */
function effectiveScopes(held: readonly Scope[]): ReadonlySet<Scope> {
  if (held.includes('admin')) return new Set(SCOPES);
  const effective = new Set(held);
  if (effective.has('write')) effective.add('read');
  return effective;
}

/**
 * Whether keys holding `held` may call a route granted by any one of `anyOf` (DESIGN §1, Scopes):
 * admin implies every scope; write implies read; a granular scope (`read:payments`) grants only
 * itself. Nothing else is implied, so neither `read` nor `write:payments` grants `read:payments`.
 *
 * @example scopesGrant(['write'], ['read', 'read:payments']) // true
 */
export function scopesGrant(held: readonly Scope[], anyOf: readonly Scope[]): boolean {
  const effective = effectiveScopes(held);
  return anyOf.some((scope) => effective.has(scope));
}

/**
 * Scopes from a comma-separated list (`read,write`) or an array: known, non-empty, de-duplicated.
 * Throws InvalidScopeError otherwise.
 */
export function parseScopes(input: string | readonly string[]): Scope[] {
  const names = typeof input === 'string' ? input.split(',') : [...input];
  const scopes: Scope[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name === '') throw new InvalidScopeError('Empty scope in the list', { param: 'scopes' });
    if (!isScope(name)) {
      throw new InvalidScopeError(`Unknown scope "${name}"; known scopes: ${SCOPES.join(', ')}`, { param: 'scopes' });
    }
    if (!scopes.includes(name)) scopes.push(name);
  }
  if (scopes.length === 0) throw new InvalidScopeError('At least one scope is required', { param: 'scopes' });
  return scopes;
}

/** False once a key is revoked or its expiry has passed; such a key authenticates nothing. */
export function isUsable(record: Pick<ApiKeyRecord, 'revoked_at' | 'expires_at'>, now: Date = new Date()): boolean {
  if (record.revoked_at !== null) return false;
  return record.expires_at === null || Date.parse(record.expires_at) > now.getTime();
}
