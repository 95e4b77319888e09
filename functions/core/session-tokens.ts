import { createHash, randomBytes } from 'node:crypto';

/** A cancel-session token: 32 random bytes, base64url (43 characters, no padding). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export const isWellFormedSessionToken = (token: string): boolean => TOKEN_PATTERN.test(token);

/** The SHA-256 (hex) a session is stored under: the token itself is never stored. */
export const hashSessionToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
