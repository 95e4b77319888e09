import { createHash, randomBytes } from 'node:crypto';

/**
 * Browser sessions of the session proxy (the backend-for-frontend pattern of the IETF's
 * browser-based-apps draft): the browser holds only an opaque, HttpOnly cookie; the identity
 * provider's JWT and the upstream's tokens stay on the server. Pure rules: lifetimes, the cookie's
 * text, the secret's form and its hash.
 */

/** Name of the session cookie: `__Host-` binds it to this exact host, `Path=/`, `Secure`, no `Domain`. */
export const SESSION_COOKIE = '__Host-sid';

/** A session id's lifetime: its cookie's Max-Age and the item's TTL. Refresh before it ends. */
export const SESSION_TTL_SECONDS = 60 * 60;

/**
 * A family's absolute lifetime (the first session plus every rotation of it): after it, refreshes
 * stop and the browser signs in again with a fresh JWT, as a refresh-token family is bounded.
 */
export const FAMILY_TTL_SECONDS = 12 * 60 * 60;

/** Rotations one family may hold (its members list stays a bounded item). */
export const MAX_FAMILY_ROTATIONS = 1000;

/**
 * Seconds after a rotation in which the old id, presented again, is taken for a concurrent
 * refresh (two tabs, a retried request: 409, nothing revoked) rather than for reuse: after it,
 * the old id revokes its family. A replay inside the grace gets nothing either way.
 */
export const ROTATION_GRACE_SECONDS = 10;

/** A WebSocket ticket's lifetime: single use, within 60 s of its issue. */
export const TICKET_TTL_SECONDS = 60;

/**
 * Leeway for the JWT's `exp` and `nbf` against our clock: small, for skew between the
 * identity provider and us (documented in docs/session-proxy.md).
 */
export const JWT_CLOCK_TOLERANCE_SECONDS = 30;

export type BrowserSessionStatus = 'active' | 'rotated' | 'revoked';

/** One session id of a family (the id itself is never stored: the item is keyed by its SHA-256). */
export interface BrowserSessionRecord {
  readonly family_id: string;
  /** The JWT's `sub` and `iss`: who the identity provider said signed in. */
  readonly subject: string;
  readonly issuer: string;
  readonly status: BrowserSessionStatus;
  readonly created_at: string;
  /** Epoch seconds: the end of this id (and the table's TTL attribute). */
  readonly expires_at: number;
  /** Epoch seconds: the end of its family; no rotation outlives it. */
  readonly family_expires_at: number;
  readonly rotated_at: string | null;
  readonly revoked_at: string | null;
}

/** A one-time WebSocket ticket (keyed by its SHA-256): who it admits, and the upstream token it carries sealed. */
export interface WebsocketTicketRecord {
  readonly family_id: string;
  readonly subject: string;
  readonly issuer: string;
  /** The upstream's token, sealed (never given to the browser). */
  readonly upstream_token_sealed: string;
  readonly created_at: string;
  /** Epoch seconds: 60 s after issue (and the table's TTL attribute). */
  readonly expires_at: number;
}

const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A session id, family id or ticket: 32 random bytes, base64url (43 characters). */
export const newSecret = (): string => randomBytes(32).toString('base64url');

export const isWellFormedSecret = (value: string): boolean => SECRET_PATTERN.test(value);

/** The SHA-256 (hex) a session or ticket is stored under. */
export const hashSecret = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

export const epochSeconds = (at: Date): number => Math.floor(at.getTime() / 1000);

/**
 * Why a stored session does not authenticate now, or undefined when it does: `just_rotated`
 * within the grace after its rotation, `rotated` (reuse) after it.
 */
export function sessionRefusal(session: BrowserSessionRecord, now: Date): 'just_rotated' | 'rotated' | 'revoked' | 'expired' | undefined {
  if (session.status === 'revoked') return 'revoked';
  if (session.status === 'rotated') {
    const rotatedAt = session.rotated_at === null ? 0 : Date.parse(session.rotated_at);
    return now.getTime() - rotatedAt < ROTATION_GRACE_SECONDS * 1000 ? 'just_rotated' : 'rotated';
  }
  const nowSeconds = epochSeconds(now);
  if (session.expires_at <= nowSeconds || session.family_expires_at <= nowSeconds) return 'expired';
  return undefined;
}

/** The cookie that sets a session id: HttpOnly (no script reads it), Secure, SameSite=Lax, host-only. */
export const sessionCookie = (sessionId: string, maxAgeSeconds: number): string =>
  `${SESSION_COOKIE}=${sessionId}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`;

/** The cookie that clears it. */
export const clearedSessionCookie = (): string => `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;

/**
 * The session id of a Cookie header: the value of the first `__Host-sid` (a browser sends the
 * host's own cookie first); undefined when there is none.
 */
export function sessionIdOf(cookieHeader: string | undefined): string | undefined {
  if (cookieHeader === undefined) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    if (pair.slice(0, at).trim() === SESSION_COOKIE) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** A database name of the upstream (`{name}` of the subscribe path): letters, digits, `-` and `_`, 1 to 64. */
export const DATABASE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The WebSocket's bounds (local proxy, and the relay on AWS): API Gateway's own message limit (128 KB, in 32 KB frames), so both behave alike. */
export const MAX_WEBSOCKET_MESSAGE_BYTES = 128 * 1024;

/** A close code that may be sent in a close frame (RFC 6455 §7.4): 1005/1006/1015 are only ever reported. */
export function sendableCloseCode(code: number): number {
  if (code === 1005) return 1000;
  if (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1006) return code;
  if (code >= 3000 && code <= 4999) return code;
  return 1011;
}
