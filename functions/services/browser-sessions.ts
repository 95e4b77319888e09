import {
  type BrowserSessionRecord,
  epochSeconds,
  FAMILY_TTL_SECONDS,
  hashSecret,
  isWellFormedSecret,
  newSecret,
  SESSION_TTL_SECONDS,
  sessionIdOf,
  sessionRefusal,
  TICKET_TTL_SECONDS,
  type WebsocketTicketRecord,
} from '#core/browser-sessions';
import { InvalidSessionError, StateConflictError } from '#core/errors';
import { verifyIdentityToken } from '#adapters/identity/jwt-verifier';
import { requestUpstreamToken } from '#adapters/http/websocket-upstream';
import { openSecret, sealSecret } from '#adapters/secret-box';
import {
  createBrowserSession,
  deleteWebsocketConnection,
  getBrowserSession,
  getWebsocketConnection,
  isBrowserSessionFamilyActive,
  peekWebsocketTicket,
  putWebsocketConnection,
  putWebsocketTicket,
  revokeBrowserSessionFamily,
  rotateBrowserSession,
  spendWebsocketTicket,
  type WebsocketConnectionRecord,
} from '#data/browser-session-repository';

/**
 * The session proxy's use cases: a verified identity-provider JWT opens a session family; the
 * cookie's id authenticates, rotates (refresh) and revokes; a rotated id presented again revokes
 * the whole family (refresh-token reuse detection, as OAuth 2.0 Security BCP §4.14 describes);
 * WebSocket tickets are one-time credentials bound to the family that minted them.
 */

/** A session the caller proved to hold: the id's hash (its key) and its record. */
export interface HeldSession {
  readonly sessionHash: string;
  readonly session: BrowserSessionRecord;
}

/** A session id to hand to the browser once (in the cookie only), with its record. */
export interface IssuedSession extends HeldSession {
  readonly sessionId: string;
}

function sessionRecord(identity: { subject: string; issuer: string }, familyId: string, familyExpiresAt: number, now: Date): BrowserSessionRecord {
  return {
    family_id: familyId,
    subject: identity.subject,
    issuer: identity.issuer,
    status: 'active',
    created_at: now.toISOString(),
    expires_at: Math.min(epochSeconds(now) + SESSION_TTL_SECONDS, familyExpiresAt),
    family_expires_at: familyExpiresAt,
    rotated_at: null,
    revoked_at: null,
  };
}

/** Verifies the JWT (401 `invalid_token` with a reason otherwise) and opens a new family with its first session. */
export async function startBrowserSession(token: string, now: Date): Promise<IssuedSession> {
  const identity = await verifyIdentityToken(token, now);
  const sessionId = newSecret();
  const sessionHash = hashSecret(sessionId);
  const session = sessionRecord(identity, newSecret(), epochSeconds(now) + FAMILY_TTL_SECONDS, now);
  await createBrowserSession(sessionHash, session);
  return { sessionId, sessionHash, session };
}

const refuse = (reason: string, message: string): InvalidSessionError => new InvalidSessionError(message, reason, { param: 'Cookie' });

/**
 * The session the `__Host-sid` cookie names, usable now; 401 `invalid_session` otherwise, with a
 * reason: `missing_cookie`, `unknown_session` (malformed, never issued, or removed after expiry),
 * `expired`, `revoked`, or `reused`: an id already rotated away, whose presentation revokes its
 * whole family (the holder of the current id is signed out too: one of the two is a thief).
 * Within 10 s of its rotation (ROTATION_GRACE_SECONDS) an old id is 409 instead: a concurrent
 * refresh that lost, not a theft.
 * The id is looked up by its SHA-256, so no secret is compared in our code: the hash is the key.
 */
export async function authenticateBrowserSession(cookieHeader: string | undefined, now: Date): Promise<HeldSession> {
  const sessionId = sessionIdOf(cookieHeader);
  if (sessionId === undefined || sessionId === '') throw refuse('missing_cookie', 'No session cookie: sign in with POST /ws/auth/session.');
  if (!isWellFormedSecret(sessionId)) throw refuse('unknown_session', 'The session cookie names no session.');
  const sessionHash = hashSecret(sessionId);
  const session = await getBrowserSession(sessionHash);
  if (session === undefined) throw refuse('unknown_session', 'The session cookie names no session.');
  switch (sessionRefusal(session, now)) {
    case 'just_rotated':
      throw new StateConflictError('This session was refreshed by another request a moment ago; use the cookie that request set.', { param: 'Cookie' });
    case 'rotated':
      await revokeBrowserSessionFamily(session.family_id, now);
      throw refuse('reused', 'This session was already refreshed: presenting it again revoked every session of its family. Sign in again.');
    case 'revoked':
      throw refuse('revoked', 'The session has been revoked. Sign in again.');
    case 'expired':
      throw refuse('expired', 'The session has expired. Sign in again.');
    default:
      return { sessionHash, session };
  }
}

/**
 * Rotates the held session: a new id in the same family (its expiry renewed, never past the
 * family's), the old one marked rotated. Of two concurrent refreshes of one id, one wins; the
 * other is 409 `state_conflict` (its id is rotated now: presented again, it revokes the family).
 */
export async function refreshBrowserSession(held: HeldSession, now: Date): Promise<IssuedSession> {
  const sessionId = newSecret();
  const sessionHash = hashSecret(sessionId);
  const session = sessionRecord(held.session, held.session.family_id, held.session.family_expires_at, now);
  if (!(await rotateBrowserSession(held.sessionHash, sessionHash, session, now))) {
    throw new StateConflictError('This session was refreshed by another request at the same time; use the cookie that request set.', { param: 'Cookie' });
  }
  return { sessionId, sessionHash, session };
}

/** Signs out: revokes the session's whole family (every id it held). */
export async function revokeBrowserSession(held: HeldSession, now: Date): Promise<BrowserSessionRecord> {
  await revokeBrowserSessionFamily(held.session.family_id, now);
  return { ...held.session, status: 'revoked', revoked_at: now.toISOString() };
}

const ticketContext = (ticketHash: string) => ({ purpose: 'websocket_ticket', id: ticketHash });
const connectionContext = (connectionId: string) => ({ purpose: 'websocket_connection', id: connectionId });

/** A ticket to hand to the browser once, and when it stops admitting. */
export interface IssuedTicket {
  readonly ticket: string;
  readonly expiresAt: number;
}

/**
 * Asks the upstream for a WebSocket token for the session's subject and wraps it in a one-time
 * ticket valid 60 s: the browser gets the ticket, never the upstream's token (kept sealed on the
 * ticket's item).
 */
export async function issueWebsocketTicket(held: HeldSession, now: Date): Promise<IssuedTicket> {
  const upstreamToken = await requestUpstreamToken(held.session);
  const ticket = newSecret();
  const ticketHash = hashSecret(ticket);
  const record: WebsocketTicketRecord = {
    family_id: held.session.family_id,
    subject: held.session.subject,
    issuer: held.session.issuer,
    upstream_token_sealed: await sealSecret(upstreamToken, ticketContext(ticketHash)),
    created_at: now.toISOString(),
    expires_at: epochSeconds(now) + TICKET_TTL_SECONDS,
  };
  await putWebsocketTicket(ticketHash, record);
  return { ticket, expiresAt: record.expires_at };
}

/** Who a WebSocket connection admits, and the upstream token to open it with. */
export interface SubscriptionGrant {
  readonly subject: string;
  readonly issuer: string;
  readonly familyId: string;
  readonly via: 'cookie' | 'ticket';
  /** Undefined when only checking (a plain GET never opens a socket). */
  readonly upstreamToken?: string;
}

/**
 * Authenticates a subscription exactly as the route does, wherever the socket is opened (the
 * local server's upgrade, API Gateway's `$connect`): the session cookie, or a one-time `ticket`
 * (401 `invalid_session`, reason `invalid_ticket`, when it is malformed, spent, expired or its
 * family was revoked). `mode: 'open'` spends the ticket and fetches the upstream token (a fresh
 * one for a cookie); `mode: 'check'` only verifies.
 */
export async function authorizeSubscription(
  credentials: { readonly cookieHeader: string | undefined; readonly ticket: string | undefined },
  mode: 'open' | 'check',
  now: Date,
): Promise<SubscriptionGrant> {
  if (credentials.ticket !== undefined) {
    const ticket = credentials.ticket;
    const badTicket = refuse(
      'invalid_ticket',
      'The WebSocket ticket is unknown, already used or expired (a ticket admits once, within 60 s): request a new one.',
    );
    if (!isWellFormedSecret(ticket)) throw badTicket;
    const ticketHash = hashSecret(ticket);
    const record = mode === 'open' ? await spendWebsocketTicket(ticketHash, now) : await peekWebsocketTicket(ticketHash, now);
    if (record === undefined || !(await isBrowserSessionFamilyActive(record.family_id, now))) throw badTicket;
    const grant = { subject: record.subject, issuer: record.issuer, familyId: record.family_id, via: 'ticket' as const };
    if (mode === 'check') return grant;
    return { ...grant, upstreamToken: await openSecret(record.upstream_token_sealed, ticketContext(ticketHash)) };
  }
  const held = await authenticateBrowserSession(credentials.cookieHeader, now);
  const grant = { subject: held.session.subject, issuer: held.session.issuer, familyId: held.session.family_id, via: 'cookie' as const };
  if (mode === 'check') return grant;
  return { ...grant, upstreamToken: await requestUpstreamToken(held.session) };
}

/** API Gateway's WebSocket connection limit: 2 hours (a reconnect with a fresh ticket continues). */
export const WEBSOCKET_CONNECTION_SECONDS = 2 * 60 * 60;

/**
 * `$connect` of the WebSocket API (AWS): authenticates as the local upgrade does (cookie or
 * ticket, spent now) and records the connection (its upstream token sealed, kept 2 h: API
 * Gateway's own limit), so that the frame relay can find it by connection id.
 */
export async function connectWebsocket(
  connectionId: string,
  database: string,
  credentials: { readonly cookieHeader: string | undefined; readonly ticket: string | undefined },
  now: Date,
): Promise<WebsocketConnectionRecord> {
  const grant = await authorizeSubscription(credentials, 'open', now);
  const connection: WebsocketConnectionRecord = {
    connection_id: connectionId,
    database,
    subject: grant.subject,
    issuer: grant.issuer,
    family_id: grant.familyId,
    upstream_token_sealed: await sealSecret(grant.upstreamToken as string, connectionContext(connectionId)),
    connected_at: now.toISOString(),
    expires_at: epochSeconds(now) + WEBSOCKET_CONNECTION_SECONDS,
  };
  await putWebsocketConnection(connection);
  return connection;
}

export const disconnectWebsocket = (connectionId: string): Promise<void> => deleteWebsocketConnection(connectionId);

/**
 * What the relay (AWS) needs to open a connection's upstream: its database and the upstream token
 * (unsealed), from the item `$connect` wrote; undefined when there is none (the browser already
 * left: `$disconnect` deleted it) or it is past API Gateway's 2 h.
 */
export async function upstreamOfConnection(connectionId: string, now: Date): Promise<{ database: string; upstreamToken: string } | undefined> {
  const connection = await getWebsocketConnection(connectionId);
  if (connection === undefined || connection.expires_at <= epochSeconds(now)) return undefined;
  return { database: connection.database, upstreamToken: await openSecret(connection.upstream_token_sealed, connectionContext(connectionId)) };
}
