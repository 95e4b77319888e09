import type { APIGatewayProxyEvent } from 'aws-lambda';
import { sessionState } from '#core/cancel-sessions';
import { hashSessionToken, readSessionToken } from '#core/session-tokens';
import { InvalidRequestError, ResourceNotFoundError } from '#core/errors';
import { getCancelSession } from '#data/cancel-session-repository';
import type { SessionTokenPrincipal } from '#api/operation';
import type { Authenticators } from './authenticator';

/**
 * The `session_token` authenticator (cancel sessions): the `{token}` path segment is the
 * credential. Anything but 43 base64url characters (the 32 random bytes start makes) is 400
 * `invalid_request` naming `token`, a too-long value of any length included: the issue's bad input
 * ("a token that is not base64url or is too long"), checked here, before the pipeline's shared
 * path-id rule (which answers other routes' over-long ids with 404) is reached. A well-formed token
 * no session has, or whose 24 h are over, is 404 (the session is gone for its holder, whichever it
 * was). The session is looked up by the token's SHA-256, so a comparison of secrets never happens
 * in our code: the hash is the key.
 */
export async function authenticateSessionToken(event: APIGatewayProxyEvent, now: Date): Promise<SessionTokenPrincipal> {
  const read = readSessionToken(event.pathParameters?.token ?? '');
  if ('problem' in read) throw new InvalidRequestError(read.problem, { param: 'token' });
  const tokenHash = hashSessionToken(read.token);
  const session = await getCancelSession(tokenHash);
  if (session === undefined || sessionState(session, now) === 'expired') {
    throw new ResourceNotFoundError('No cancel session has this token, or it has expired (a session is valid 24 hours).', { param: 'token' });
  }
  return { kind: 'session_token', tokenHash, session };
}

/** `session_token` (authenticateSessionToken). */
export const sessionTokenAuth = { session_token: async ({ event, now }) => authenticateSessionToken(event, now) } as const satisfies Authenticators;
