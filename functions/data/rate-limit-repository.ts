import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';
import { ENTITY, type ItemKey } from './keys';

/** How long a window item outlives its window before TTL removes it. */
const WINDOW_RETENTION_SECONDS = 120;

/**
 * Counts one request in a fixed window with a single conditional update: the count rises only
 * while it is below the limit, so concurrent requests can never pass more than `limit` (DynamoDB
 * applies the condition and the increment atomically). Returns the count after this request, or
 * `exceeded` when the window is full.
 */
export async function countInWindow(key: ItemKey, limit: number, windowEndsAt: number): Promise<{ count: number } | 'exceeded'> {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: key,
        UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, #entity = :entity, #expires = :expires',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'request_count', '#entity': 'entity', '#expires': 'expires_at' },
        ExpressionAttributeValues: {
          ':zero': 0,
          ':one': 1,
          ':limit': limit,
          ':entity': ENTITY.rateLimitWindow,
          ':expires': windowEndsAt + WINDOW_RETENTION_SECONDS,
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return { count: Number(Attributes?.request_count ?? limit) };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 'exceeded';
    throw error;
  }
}
