import type { APIGatewayProxyEvent } from 'aws-lambda';
import { hashApiKey, looksLikeApiKey } from '#core/api-keys';
import { InsufficientScopeError, InvalidApiKeyError, InvalidRequestError, NotImplementedError } from '#core/errors';
import { scopesGrant } from '#core/scopes';
import { findApiKeyByHash, isUsable } from '#data/api-key-repository';
import type { ApiKeyPrincipal, Operation, PrincipalOf, PublicPrincipal } from '#api/operation';
import type { AuthKind, RouteDef } from '#api/route-types';
import { verifyCronSecret } from './cron-secret';
import { authenticateSessionCookie } from './session-cookie';
import { authenticateSessionToken } from './session-token';
import { headerOf } from './headers';
import { authenticateWidget } from './widget-hmac';

export interface AuthenticationRequest {
  readonly event: APIGatewayProxyEvent;
  readonly route: RouteDef;
  /** The row's operation; undefined while it is not built. */
  readonly operation: Operation | undefined;
  readonly now: Date;
}

type Authenticator<A extends AuthKind> = (request: AuthenticationRequest) => Promise<PrincipalOf[A]>;

const PUBLIC: PublicPrincipal = { kind: 'public' };

/**
 * The key from `Authorization: Bearer <key>` (A) or `X-API-Key: <key>` (B); both may be sent
 * only if they name the same key (400 otherwise: which one was meant is not ours to guess).
 * An Authorization header that is not a Bearer credential presents an empty key.
 */
function presentedKey(event: APIGatewayProxyEvent): string | undefined {
  const authorization = headerOf(event, 'authorization');
  const bearer = authorization === undefined ? undefined : (/^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? '');
  const apiKeyHeader = headerOf(event, 'x-api-key')?.trim();
  if (bearer !== undefined && apiKeyHeader !== undefined && bearer !== apiKeyHeader) {
    throw new InvalidRequestError('Authorization and X-API-Key name two different keys: send one key.', { param: 'X-API-Key' });
  }
  return bearer ?? apiKeyHeader;
}

/**
 * The API key's principal: looked up by its SHA-256 hash (the key itself is never stored); an
 * unknown, expired or revoked key is 401. Undefined when no key was presented.
 */
async function apiKeyPrincipal(event: APIGatewayProxyEvent, now: Date): Promise<ApiKeyPrincipal | undefined> {
  const key = presentedKey(event);
  if (key === undefined) return undefined;
  if (!looksLikeApiKey(key)) throw new InvalidApiKeyError('Invalid API key provided.');
  const record = await findApiKeyByHash(hashApiKey(key));
  if (record === undefined || !isUsable(record, now)) {
    throw new InvalidApiKeyError(record?.revoked_at ? 'This API key has been revoked.' : record ? 'This API key has expired.' : 'Invalid API key provided.');
  }
  return { kind: 'api_key', merchantId: record.merchant_id, apiKey: record };
}

const notBuilt = (route: RouteDef): NotImplementedError =>
  new NotImplementedError(`${route.method} ${route.path} (${route.operationId}) is not implemented yet.`);

/**
 * One authenticator per auth kind (route-types.ts `AUTH_KINDS`): each refuses what it cannot
 * verify (401, or 404 where the credential names nothing) and otherwise gives the operation its
 * typed principal. Scopes are checked after the rate limit (`authorize`), so that a 403 is
 * counted and carries the rate-limit headers like every response after authentication.
 */
export const authenticators: { readonly [A in AuthKind]: Authenticator<A> } = {
  api_key: async ({ event, now }) => {
    const principal = await apiKeyPrincipal(event, now);
    if (principal === undefined) throw new InvalidApiKeyError('No API key provided: send it as "Authorization: Bearer <key>" or "X-API-Key: <key>".');
    return principal;
  },
  optional_api_key: async ({ event, now }) => (await apiKeyPrincipal(event, now)) ?? PUBLIC,
  public: async () => PUBLIC,
  cron_secret: async ({ event }) => {
    await verifyCronSecret(event);
    return { kind: 'cron_secret' };
  },
  provider_signature: async ({ event, route, operation }) => {
    if (operation?.verify === undefined) throw notBuilt(route);
    return operation.verify(event, route);
  },
  session_token: async ({ event, now }) => authenticateSessionToken(event, now),
  widget_hmac: async ({ event, route, operation, now }) => {
    if (operation === undefined) throw notBuilt(route);
    return authenticateWidget(event, route, now);
  },
  session_cookie: async ({ event, route, now }) => authenticateSessionCookie(event, route, now),
};

/**
 * Scopes (DESIGN §1): a key without any of the row's scopes is 403.
 */
export function authorize(principal: ApiKeyPrincipal, route: RouteDef): void {
  if (route.scopes.length > 0 && !scopesGrant(principal.apiKey.scopes, route.scopes)) {
    throw new InsufficientScopeError(`This API key lacks the scope for ${route.method} ${route.path}: it needs one of ${route.scopes.join(', ')}.`);
  }
}
