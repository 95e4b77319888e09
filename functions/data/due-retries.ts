import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { paymentIdFor } from '#core/payments';
import { env } from '#shared/env';
import { documentClient } from './client';
import { DUE_RETRY_SHARDS, dueRetryKeys } from './keys';

/** A retry the due index says has come (read from GSI4, eventually consistent: the claim re-reads the payment). */
export interface DueRetry {
  readonly merchantId: string;
  readonly paymentId: string;
  readonly psp: string;
  readonly dueAt: string;
}

/**
 * The retries due at `now` in every shard of the due index (keys.ts dueRetryKeys), oldest first
 * within a shard, at most `limit` in all and an even share of it from each shard (a shard with
 * more due gives the rest to the next run): one Query per shard, never a Scan.
 */
export async function findDueRetries(now: Date, limit: number): Promise<DueRetry[]> {
  const upTo = dueRetryKeys.dueUpTo(now.toISOString());
  const perShardLimit = Math.ceil(limit / DUE_RETRY_SHARDS);
  const perShard = await Promise.all(
    Array.from({ length: DUE_RETRY_SHARDS }, async (_, shard) => {
      const found: DueRetry[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await documentClient.send(
          new QueryCommand({
            TableName: env.TABLE_NAME,
            IndexName: 'GSI4',
            KeyConditionExpression: '#pk = :pk AND #sk <= :upTo',
            ExpressionAttributeNames: { '#pk': 'GSI4PK', '#sk': 'GSI4SK', '#psp': 'psp' },
            ExpressionAttributeValues: { ':pk': dueRetryKeys.shardPk(shard), ':upTo': upTo },
            ProjectionExpression: 'GSI4SK, #psp',
            Limit: Math.min(perShardLimit - found.length, 1000),
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) {
          const parsed = dueRetryKeys.parse(item.GSI4SK as string);
          if (parsed !== undefined)
            found.push({ merchantId: parsed.merchantId, paymentId: paymentIdFor(parsed.body), psp: item.psp as string, dueAt: parsed.dueAt });
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey !== undefined && found.length < perShardLimit);
      return found;
    }),
  );
  return perShard.flat().sort((a, b) => a.dueAt.localeCompare(b.dueAt));
}
