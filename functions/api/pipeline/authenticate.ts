import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Caller } from '../operation';
import type { RouteDef } from '../route-types';
import { hashApiKey, looksLikeApiKey } from '../../core/api-keys';
import { scopesGrant } from '../../core/scopes';
import { InsufficientScopeError, InvalidApiKeyError } from '../../core/errors';
import { findApiKeyByHash, isUsable } from '../../data/api-key-repository';

/** A header by name, whatever case the client sent it in. */
export function headerOf(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/** The key from `Authorization: Bearer <key>` (A) or `X-API-Key: <key>` (B). */
function presentedKey(event: APIGatewayProxyEvent): string | undefined {
  const authorization = headerOf(event, 'authorization');
  if (authorization !== undefined) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return bearer?.[1] ?? '';
  }
  return headerOf(event, 'x-api-key')?.trim();
}

/**
 * Satisfies the row's auth kind for API keys: looks the key up by its SHA-256 hash (the key
 * itself is never stored), refuses unknown, expired and revoked keys with 401 and a key without
 * any of the row's scopes with 403. The key's merchant becomes the tenant of the request.
 * Other auth kinds (signatures, tokens, secrets) are verified by their operations, which need
 * the body or a merchant's secret to do it.
 */
export async function authenticate(event: APIGatewayProxyEvent, route: RouteDef, now: Date = new Date()): Promise<Caller | undefined> {
  if (route.auth !== 'api_key' && route.auth !== 'optional_api_key') return undefined;
  const key = presentedKey(event);
  if (key === undefined) {
    if (route.auth === 'optional_api_key') return undefined;
    throw new InvalidApiKeyError('No API key provided: send it as "Authorization: Bearer <key>" or "X-API-Key: <key>".');
  }
  if (!looksLikeApiKey(key)) throw new InvalidApiKeyError('Invalid API key provided.');
  const record = await findApiKeyByHash(hashApiKey(key));
  if (record === undefined || !isUsable(record, now)) {
    throw new InvalidApiKeyError(
      record?.revoked_at ? 'This API key has been revoked.' : record ? 'This API key has expired.' : 'Invalid API key provided.',
    );
  }
  if (route.scopes.length > 0 && !scopesGrant(record.scopes, route.scopes)) {
    throw new InsufficientScopeError(`This API key lacks the scope for ${route.method} ${route.path}: it needs one of ${route.scopes.join(', ')}.`);
  }
  return { merchantId: record.merchant_id, apiKey: record };
}
