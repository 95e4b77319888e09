/**
 * What every keyed scenario does on both sides: (a) build the REST proxy event API Gateway would
 * send for a request and invoke a group's handler with it, as the local stack does; (b) make the
 * DynamoDB calls the pipeline cannot avoid for a keyed request (the key by its hash, the merchant
 * at most every 30 s, the key's rate-limit window). Imported late, like the scenarios (it imports
 * functions/).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { GroupHandler } from '#api/group-handler';
import { routes } from '#api/routes';
import { hashApiKey } from '#core/api-keys';
import { documentClient } from '#data/client';
import { ENTITY, keys } from '#data/keys';
import { env } from '#shared/env';
import { type RawHttpRequest, toApiGatewayEvent } from '#lib/local/api-gateway-event';
import { createLambdaContext } from '#lib/local/lambda-context';
import { RouteMatcher } from '#lib/local/route-matcher';
import type { BenchFixture } from './scenario';

/** As getMerchantCached: a warm function reads a merchant at most this often. */
const MERCHANT_CACHE_MS = 30_000;
/** As rate-limit.ts and rate-limit-repository.ts. */
const WINDOW_SECONDS = 60;
const WINDOW_RETENTION_SECONDS = 120;

const matcher = new RouteMatcher(routes);

/**
 * A function that sends one request (`url` may carry a query string) with the bench key to a
 * group's handler, as API Gateway would invoke its Lambda.
 */
export function routeInvoker(handler: GroupHandler, method: string, url: string, fixture: BenchFixture): () => Promise<APIGatewayProxyResult> {
  const path = url.split('?')[0] as string;
  const match = matcher.match(method, path);
  if (match === undefined || !('route' in match)) throw new Error(`No row of the route table answers ${method} ${path}`);
  const request: RawHttpRequest = {
    method,
    url,
    rawHeaders: ['Host', 'api.bench.local', 'User-Agent', 'recovery-bench', 'Authorization', `Bearer ${fixture.apiKey}`],
    body: Buffer.alloc(0),
    sourceIp: '127.0.0.1',
  };
  const functionName = `recovery-${match.route.group}`;
  return () => handler(toApiGatewayEvent(request, match, randomUUID()), createLambdaContext(functionName));
}

/** The raw side's copy of the merchant cache, module-scoped like the function's. */
let rawMerchantReadUntil = 0;

/**
 * The raw calls of a keyed request before its operation: consistent GetItem of the API-key hash
 * item, the merchant's GetItem when the 30 s cache has run out, and the conditional UpdateItem of
 * the key's read or write window (expressions as rate-limit-repository).
 */
export function rawKeyAndRateLimit(fixture: BenchFixture, kind: 'read' | 'write'): () => Promise<void> {
  const hashItem = keys.apiKeyByHash(hashApiKey(fixture.apiKey));
  const merchantItem = keys.merchant(fixture.merchantId);
  const bucket = `key:${fixture.apiKeyId}:${kind}`;
  const limit = kind === 'read' ? fixture.readPerMinute : fixture.writePerMinute;
  return async () => {
    const now = Date.now();
    await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: hashItem, ConsistentRead: true }));
    if (now >= rawMerchantReadUntil) {
      await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: merchantItem, ConsistentRead: true }));
      rawMerchantReadUntil = now + MERCHANT_CACHE_MS;
    }
    const nowSeconds = Math.floor(now / 1000);
    const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: keys.rateLimitWindow(fixture.merchantId, bucket, windowStart),
        UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, #entity = :entity, #expires = :expires',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'request_count', '#entity': 'entity', '#expires': 'expires_at' },
        ExpressionAttributeValues: {
          ':zero': 0,
          ':one': 1,
          ':limit': limit,
          ':entity': ENTITY.rateLimitWindow,
          ':expires': windowStart + WINDOW_SECONDS + WINDOW_RETENTION_SECONDS,
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
  };
}

/** One request that must answer `status` (200 unless said); otherwise it throws with the start of the body, which fails the bench. */
export function expectingStatus(invoke: () => Promise<APIGatewayProxyResult>, label: string, status = 200): () => Promise<void> {
  return async () => {
    const response = await invoke();
    if (response.statusCode !== status) throw new Error(`${label} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
  };
}
