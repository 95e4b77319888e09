import { SESSION_TTL_SECONDS, sessionCookie } from '#core/browser-sessions';
import { InvalidRequestError, InvalidTokenError } from '#core/errors';
import { headerOf } from '#api/pipeline/headers';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { startBrowserSession } from '#services/browser-sessions';
import { createSessionSchemas } from './schemas';
import { cookieHeaders, sessionView } from './views';

/**
 * POST /ws/auth/session (edge host): exchanges the identity provider's JWT (`Authorization:
 * Bearer <jwt>` or body `{ "token" }`) for a session: 201 with its public fields and
 * `Set-Cookie: __Host-sid=…; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=3600`. The JWT is
 * verified against the provider's JWKS (adapters/identity/jwt-verifier.ts); any failure is 401
 * `invalid_token` with a `reason`, an unconfigured provider 503.
 */
export const createSession = defineOperation({ auth: 'public', schemas: createSessionSchemas }, async ({ event, body, requestId }) => {
  const authorization = headerOf(event, 'authorization');
  const bearer = authorization === undefined ? undefined : (/^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? '');
  if (bearer !== undefined && body.token !== undefined && bearer !== body.token) {
    throw new InvalidRequestError('Authorization and the body name two different tokens: send one.', { param: 'token' });
  }
  const token = bearer ?? body.token;
  if (token === undefined || token === '') {
    throw new InvalidTokenError('No token: send the JWT as "Authorization: Bearer <jwt>" or as body { "token": "<jwt>" }.', 'missing_token', {
      param: 'token',
    });
  }
  const { sessionId, session } = await startBrowserSession(token, new Date());
  return { statusCode: 201, body: envelope(sessionView(session), requestId), headers: cookieHeaders(sessionCookie(sessionId, SESSION_TTL_SECONDS)) };
});
