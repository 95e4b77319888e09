import { createHash, randomBytes } from 'node:crypto';

/** The length of a cancel-session token: 32 random bytes, base64url without padding. */
export const SESSION_TOKEN_LENGTH = 43;

/** A cancel-session token: 32 random bytes, base64url (43 characters, no padding). */
export const SESSION_TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${SESSION_TOKEN_LENGTH}}$`);

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

const isWellFormedSessionToken = (token: string): boolean => SESSION_TOKEN_PATTERN.test(token);

/** The SHA-256 (hex) a session is stored under: the token itself is never stored. */
export const hashSessionToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * The token a `{token}` path segment holds (as sent: still percent-encoded), or why it holds none:
 * broken percent-encoding, a value too long (of any length: a 10 KB one too), or one that is not
 * 43 base64url characters. The reason never echoes the value. The session routes answer it with
 * 400 `invalid_request` (`param: token`), the hosted page with its own 400 page.
 */
export function readSessionToken(segment: string): { readonly token: string } | { readonly problem: string } {
  let token: string;
  try {
    token = decodeURIComponent(segment);
  } catch {
    return { problem: 'The session token is not valid percent-encoding.' };
  }
  if (isWellFormedSessionToken(token)) return { token };
  return {
    problem:
      token.length > SESSION_TOKEN_LENGTH
        ? `The session token is too long: a token is ${SESSION_TOKEN_LENGTH} base64url characters.`
        : `The session token must be ${SESSION_TOKEN_LENGTH} base64url characters.`,
  };
}
