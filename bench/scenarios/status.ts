import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { routes } from '../../functions/api/routes';
import { handler } from '../../functions/api/status/handler';
import { hashApiKey } from '../../functions/core/api-keys';
import { documentClient } from '../../functions/data/client';
import { ENTITY, keys } from '../../functions/data/keys';
import { env } from '../../functions/shared/env';
import { type RawHttpRequest, toApiGatewayEvent } from '../../lib/local/api-gateway-event';
import { createLambdaContext } from '../../lib/local/lambda-context';
import { RouteMatcher } from '../../lib/local/route-matcher';
import type { Scenario } from '../scenario';

/** As getMerchantCached: a warm function reads a merchant at most this often. */
const MERCHANT_CACHE_MS = 30_000;
/** As rate-limit.ts and rate-limit-repository.ts. */
const WINDOW_SECONDS = 60;
const WINDOW_RETENTION_SECONDS = 120;

/** The raw side's copy of the merchant cache, module-scoped like the function's. */
let rawMerchantReadUntil = 0;

export const scenario: Scenario = {
  name: 'GET /api/v1/status with a key',
  notes: [
    'raw = consistent GetItem of the API-key hash item + the rate-limit conditional UpdateItem (expressions as rate-limit-repository), on the same document client',
    'merchant GetItem: getMerchantCached reads it at most once per 30 s per warm function; the raw side keeps the same 30 s cache, so both make it equally often (~0 per request here, 1/(30 s x requests per second) in general)',
  ],

  async prepare(fixture) {
    const path = '/api/v1/status';
    const match = new RouteMatcher(routes).match('GET', path);
    if (match === undefined || !('route' in match)) throw new Error(`No row of the route table answers GET ${path}`);
    const request: RawHttpRequest = {
      method: 'GET',
      url: path,
      rawHeaders: ['Host', 'api.bench.local', 'User-Agent', 'recovery-bench', 'Authorization', `Bearer ${fixture.apiKey}`],
      body: Buffer.alloc(0),
      sourceIp: '127.0.0.1',
    };
    const invoke = () => handler(toApiGatewayEvent(request, match, randomUUID()), createLambdaContext('recovery-status'));

    const first = await invoke();
    const data = (JSON.parse(first.body) as { data?: { authenticated?: unknown; merchant_id?: unknown } }).data;
    if (first.statusCode !== 200 || data?.authenticated !== true || data.merchant_id !== fixture.merchantId) {
      throw new Error(`GET ${path} with the bench key should answer 200 with authenticated: true, got ${first.statusCode}: ${first.body.slice(0, 300)}`);
    }

    const hashItem = keys.apiKeyByHash(hashApiKey(fixture.apiKey));
    const merchantItem = keys.merchant(fixture.merchantId);
    const bucket = `key:${fixture.apiKeyId}:read`;

    return {
      async handler() {
        const response = await invoke();
        if (response.statusCode !== 200) throw new Error(`GET ${path} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
      },

      async raw() {
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
              ':limit': fixture.readPerMinute,
              ':entity': ENTITY.rateLimitWindow,
              ':expires': windowStart + WINDOW_SECONDS + WINDOW_RETENTION_SECONDS,
            },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
      },
    };
  },
};
