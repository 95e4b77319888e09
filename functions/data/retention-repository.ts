import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';
import { findDueEntries } from './due-index';
import { dailyJobKeys, type ItemKey, RETENTION_SHARDS } from './keys';

/** A stored payload past its retention, as the retention index names it. */
export interface ExpiredPayload {
  readonly merchantId: string;
  readonly key: ItemKey;
  readonly expiredAt: string;
}

const retentionIndex = {
  shards: RETENTION_SHARDS,
  shardPk: dailyJobKeys.retentionShardPk,
  dueUpTo: dailyJobKeys.retentionUpTo,
  parse: dailyJobKeys.retentionParse,
};

/**
 * Up to `limit` stored payloads (provider deliveries, outbound events) whose expiry is at or before
 * `now`, every merchant, oldest first: one bounded Query per shard of the retention index (GSI4),
 * never a Scan. Eventually consistent: the delete re-checks the expiry on the item.
 */
export async function findExpiredPayloads(now: Date, limit: number): Promise<ExpiredPayload[]> {
  const entries = await findDueEntries(retentionIndex, now, limit, ['PK', 'SK']);
  return entries.map((entry) => ({
    merchantId: entry.merchantId,
    key: { PK: entry.attributes.PK as string, SK: entry.attributes.SK as string },
    expiredAt: entry.dueAt,
  }));
}

/**
 * Deletes a stored payload on the condition that it is still there and its expiry (`expires_at`,
 * epoch seconds) is at or before `now`: false when it is already gone (TTL, erasure, another run).
 */
export async function deleteExpiredPayload(key: ItemKey, now: Date): Promise<boolean> {
  try {
    await documentClient.send(
      new DeleteCommand({
        TableName: env.TABLE_NAME,
        Key: { PK: key.PK, SK: key.SK },
        ConditionExpression: 'attribute_exists(PK) AND expires_at <= :now',
        ExpressionAttributeValues: { ':now': Math.floor(now.getTime() / 1000) },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
