import type { APIGatewayProxyEvent } from 'aws-lambda';
import { hashApiKey, looksLikeApiKey } from '#core/api-keys';
import { InvalidApiKeyError, InvalidRequestError } from '#core/errors';
import { findApiKeyByHash, isUsable } from '#data/api-key-repository';
import type { ApiKeyPrincipal, PublicPrincipal } from '#api/operation';
import type { Authenticators } from './authenticator';
import { headerOf } from './headers';

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

const PUBLIC: PublicPrincipal = { kind: 'public' };

/** `api_key` (a key is required) and `optional_api_key` (a key when one is sent, else public). */
export const apiKeyAuth = {
  api_key: async ({ event, now }) => {
    const principal = await apiKeyPrincipal(event, now);
    if (principal === undefined) throw new InvalidApiKeyError('No API key provided: send it as "Authorization: Bearer <key>" or "X-API-Key: <key>".');
    return principal;
  },
  optional_api_key: async ({ event, now }) => (await apiKeyPrincipal(event, now)) ?? PUBLIC,
} as const satisfies Authenticators;
