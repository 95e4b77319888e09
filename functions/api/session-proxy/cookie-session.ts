import { InvalidSessionError } from '#core/errors';
import type { SessionCookiePrincipal } from '#api/operation';
import type { HeldSession } from '#services/browser-sessions';

/** The cookie's session of a principal; a WebSocket ticket (GET subscribe only) opens no session routes. */
export function cookieSession(principal: SessionCookiePrincipal): HeldSession {
  if (principal.via !== 'cookie')
    throw new InvalidSessionError('This route needs the session cookie, not a WebSocket ticket.', 'missing_cookie', { param: 'Cookie' });
  return { sessionHash: principal.sessionHash, session: principal.session };
}
