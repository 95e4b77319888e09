import { createHash, randomBytes } from 'node:crypto';
import { ResourceNotFoundError } from './errors';
import type { Scope } from './scopes';

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

/** False once a key is revoked or its expiry has passed; such a key authenticates nothing. */
export function isUsable(record: Pick<ApiKeyRecord, 'revoked_at' | 'expires_at'>, now: Date = new Date()): boolean {
  if (record.revoked_at !== null) return false;
  return record.expires_at === null || Date.parse(record.expires_at) > now.getTime();
}

/** What is kept of an API key. Never the key itself: only its hash identifies it (not exposed here). */
export interface ApiKeyRecord {
  readonly id: string;
  readonly merchant_id: string;
  readonly scopes: readonly Scope[];
  readonly mode: ApiKeyMode;
  /** First 12 characters of the key (`rk_live_Ab3x`), for display. */
  readonly prefix: string;
  readonly last4?: string;
  readonly created_at: string;
  /** ISO-8601; null when the key never expires. */
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
}

export interface NewApiKey {
  readonly merchantId: string;
  readonly scopes: readonly Scope[];
  /** @default 'live' */
  readonly mode?: ApiKeyMode;
  /** Lifetime from creation; the key never expires when absent. */
  readonly expiresInSeconds?: number;
}

const ID_BYTES = 16;
export const newApiKeyId = (): string => `key_${encodeBase62(randomBytes(ID_BYTES))}`;

/** Port: implemented over DynamoDB in functions/data/api-key-repository.ts. */
export interface ApiKeyRepository {
  createApiKey(input: NewApiKey): Promise<{ record: ApiKeyRecord; key: string }>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  revokeApiKey(keyId: string): Promise<ApiKeyRecord>;
  listApiKeys(merchantId: string): Promise<ApiKeyRecord[]>;
}

export class ApiKeyNotFoundError extends ResourceNotFoundError {
  constructor(keyId: string, options?: ErrorOptions) {
    super(`No API key with id "${keyId}"`, { ...options, param: 'key_id' });
  }
}
