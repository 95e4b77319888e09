import { epochSeconds, sessionCookie } from '#core/browser-sessions';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { refreshBrowserSession } from '#services/browser-sessions';
import { cookieSession } from './cookie-session';
import { refreshSessionSchemas } from './schemas';
import { cookieHeaders, sessionView } from './views';

/**
 * POST /ws/auth/refresh: rotates the cookie's session: a new id in the same family (its new cookie
 * set), the old id rotated. Presenting the old id again later revokes the whole family (401
 * `invalid_session`, reason `reused`); a concurrent refresh of the same id that lost is 409.
 */
export const refreshSession = defineOperation({ auth: 'session_cookie', schemas: refreshSessionSchemas }, async ({ principal, requestId }) => {
  const now = new Date();
  const { sessionId, session } = await refreshBrowserSession(cookieSession(principal), now);
  return { body: envelope(sessionView(session), requestId), headers: cookieHeaders(sessionCookie(sessionId, session.expires_at - epochSeconds(now))) };
});
