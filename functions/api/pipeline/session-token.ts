import type { APIGatewayProxyEvent } from 'aws-lambda';
import { sessionState } from '#core/cancel-sessions';
import { hashSessionToken, isWellFormedSessionToken } from '#core/session-tokens';
import { InvalidRequestError, ResourceNotFoundError } from '#core/errors';
import { isPossibleId } from '#core/ids';
import { getCancelSession } from '#data/cancel-session-repository';
import type { SessionTokenPrincipal } from '#api/operation';
import type { Authenticators } from './authenticator';

/**
 * The `session_token` authenticator (cancel sessions): the `{token}` path segment is the
 * credential. A value longer than any path id (or with characters no id has) names nothing: 404,
 * as on every route (parse-request.ts); one of a plausible length that is not 43 base64url
 * characters is 400 `invalid_request`; a token no session has, or whose 24 h are over, is 404 (the session is gone
 * for its holder, whichever it was). The session is looked up by the token's SHA-256, so a
 * comparison of secrets never happens in our code: the hash is the key.
 */
export async function authenticateSessionToken(event: APIGatewayProxyEvent, now: Date): Promise<SessionTokenPrincipal> {
  const raw = event.pathParameters?.token ?? '';
  let token: string;
  try {
    token = decodeURIComponent(raw);
  } catch {
    throw new InvalidRequestError('The session token is not valid percent-encoding.', { param: 'token' });
  }
  if (!isPossibleId(token)) throw new ResourceNotFoundError('No cancel session has this token.', { param: 'token' });
  if (!isWellFormedSessionToken(token)) throw new InvalidRequestError('The session token must be 43 base64url characters.', { param: 'token' });
  const tokenHash = hashSessionToken(token);
  const session = await getCancelSession(tokenHash);
  if (session === undefined || sessionState(session, now) === 'expired') {
    throw new ResourceNotFoundError('No cancel session has this token, or it has expired (a session is valid 24 hours).', { param: 'token' });
  }
  return { kind: 'session_token', tokenHash, session };
}

/** `session_token` (authenticateSessionToken). */
export const sessionTokenAuth = { session_token: async ({ event, now }) => authenticateSessionToken(event, now) } as const satisfies Authenticators;
