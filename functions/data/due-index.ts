import { paginateQuery, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';

/** One sharded due index on GSI4 (keys.ts: `dueRetryKeys`, `messageDueKeys`): its shards and how its sort keys read. */
export interface ShardedDueIndex {
  readonly shards: number;
  readonly shardPk: (shard: number) => string;
  readonly dueUpTo: (at: string) => string;
  readonly parse: (sortKey: string) => { dueAt: string; merchantId: string; body: string } | undefined;
}

/** A due entry, with the item attributes asked for besides its key. */
export interface DueEntry {
  readonly dueAt: string;
  readonly merchantId: string;
  readonly body: string;
  readonly attributes: Readonly<Record<string, unknown>>;
}

/**
 * The entries due at `now` in every shard of a due index, oldest first, at most `limit` in all
 * and an even share of it from each shard (a shard with more due gives the rest to the next run):
 * one Query per shard, never a Scan. GSI4 is eventually consistent: callers re-check what they claim.
 */
export async function findDueEntries(index: ShardedDueIndex, now: Date, limit: number, attributes: readonly string[] = []): Promise<DueEntry[]> {
  const upTo = index.dueUpTo(now.toISOString());
  const perShard = Math.ceil(limit / index.shards);
  const names = Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name]));
  const shards = await Promise.all(
    Array.from({ length: index.shards }, async (_, shard) => {
      const found: DueEntry[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await documentClient.send(
          new QueryCommand({
            TableName: env.TABLE_NAME,
            IndexName: 'GSI4',
            KeyConditionExpression: '#pk = :pk AND #sk <= :upTo',
            ExpressionAttributeNames: { '#pk': 'GSI4PK', '#sk': 'GSI4SK', ...names },
            ExpressionAttributeValues: { ':pk': index.shardPk(shard), ':upTo': upTo },
            ProjectionExpression: ['#sk', ...Object.keys(names)].join(', '),
            Limit: Math.min(perShard - found.length, 1000),
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) {
          const parsed = index.parse(item.GSI4SK as string);
          if (parsed !== undefined) found.push({ ...parsed, attributes: item });
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey !== undefined && found.length < perShard);
      return found;
    }),
  );
  return shards.flat().sort((a, b) => a.dueAt.localeCompare(b.dueAt));
}

/**
 * Every item of a sharded GSI1 partition family, shard after shard (the card-expiry index's
 * months, the upcoming-charge index's days): one paged Query per partition key, never a Scan.
 * `attributes` limits what is read (a projection); all of the item when absent.
 */
export async function* itemsOfPartitions(partitionKeys: readonly string[], attributes?: readonly string[]): AsyncGenerator<Record<string, unknown>> {
  const names = Object.fromEntries((attributes ?? []).map((name, i) => [`#a${i}`, name]));
  for (const pk of partitionKeys) {
    const pages = paginateQuery(
      { client: documentClient, pageSize: 500 },
      {
        TableName: env.TABLE_NAME,
        IndexName: 'GSI1',
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': 'GSI1PK', ...names },
        ExpressionAttributeValues: { ':pk': pk },
        ...(attributes === undefined ? {} : { ProjectionExpression: Object.keys(names).join(', ') }),
      },
    );
    for await (const page of pages) yield* page.Items ?? [];
  }
}
