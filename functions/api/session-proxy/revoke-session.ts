import { clearedSessionCookie } from '#core/browser-sessions';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { revokeBrowserSession } from '#services/browser-sessions';
import { cookieSession } from './cookie-session';
import { revokeSessionSchemas } from './schemas';
import { cookieHeaders, sessionView } from './views';

/** POST /ws/auth/revoke: signs out: the session's family is revoked (every id of it) and the cookie cleared (`Max-Age=0`). */
export const revokeSession = defineOperation({ auth: 'session_cookie', schemas: revokeSessionSchemas }, async ({ principal, requestId }) => {
  const session = await revokeBrowserSession(cookieSession(principal), new Date());
  return { body: envelope(sessionView(session), requestId), headers: cookieHeaders(clearedSessionCookie()) };
});
