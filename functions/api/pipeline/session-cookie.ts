import type { APIGatewayProxyEvent } from 'aws-lambda';
import { authenticateBrowserSession, authorizeSubscription } from '#services/browser-sessions';
import type { SessionCookiePrincipal } from '#api/operation';
import type { RouteDef } from '#api/route-types';
import type { Authenticators } from './authenticator';
import { headerOf } from './headers';
import { decodePathParameters } from './parse-request';

/** The WebSocket ticket a request presents (`?ticket=`): read only on GET rows, the WebSocket subscribe. */
export function presentedTicket(event: APIGatewayProxyEvent, route: RouteDef): string | undefined {
  if (route.method !== 'GET') return undefined;
  return event.queryStringParameters?.ticket ?? undefined;
}

/**
 * The `session_cookie` authenticator (session proxy): the `__Host-sid` cookie's session, usable
 * now (services/browser-sessions.ts says every refusal: 401 `invalid_session` with a reason). On
 * the WebSocket subscribe row a one-time `?ticket=` admits instead; here it is only checked, not
 * spent: an HTTP request never opens the socket (the upgrade spends it, lib/local and `$connect`).
 */
export async function authenticateSessionCookie(event: APIGatewayProxyEvent, route: RouteDef, now: Date): Promise<SessionCookiePrincipal> {
  // A path that is malformed (400) or names nothing that can exist (404) is answered before any
  // credential is looked at, so that no ticket is checked for a database that cannot be.
  decodePathParameters(event);
  const ticket = presentedTicket(event, route);
  const cookieHeader = headerOf(event, 'cookie');
  if (ticket !== undefined) {
    const grant = await authorizeSubscription({ cookieHeader, ticket }, 'check', now);
    return { kind: 'session_cookie', via: 'ticket', subject: grant.subject, issuer: grant.issuer, familyId: grant.familyId };
  }
  const held = await authenticateBrowserSession(cookieHeader, now);
  return { kind: 'session_cookie', via: 'cookie', ...held };
}

/** `session_cookie` (authenticateSessionCookie). */
export const sessionCookieAuth = {
  session_cookie: async ({ event, route, now }) => authenticateSessionCookie(event, route, now),
} as const satisfies Authenticators;
