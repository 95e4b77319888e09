import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { RollupItem } from '#core/analytics/rollup-item';
import { env } from '#shared/env';
import { documentClient } from './client';
import { type RollupFamily, type RollupGranularity, rollupKeys } from './keys';

export type { RollupItem };

/** Attributes of a rollup item that are not counters. */
const DESCRIPTIVE = new Set(['PK', 'SK', 'entity', 'merchant_id', 'bucket', 'dims', 'family', 'granularity']);

/** A stored rollup item as a RollupItem: every numeric attribute that is not descriptive is a counter. */
export function rollupFromItem(item: Readonly<Record<string, unknown>>): RollupItem {
  const counters: Record<string, number> = {};
  for (const [name, value] of Object.entries(item)) if (typeof value === 'number' && !DESCRIPTIVE.has(name)) counters[name] = value;
  return { bucket: item.bucket as string, dims: (item.dims ?? {}) as Record<string, string>, counters };
}

/**
 * Every rollup item of a family and granularity from bucket `first` to `last` (both included):
 * one Query (more pages only past 1 MB), whatever the number of payments behind them; its cost
 * grows with the number of buckets and of distinct dimension values, never with the data.
 * Eventually consistent: rollups trail the writes by the stream's lag anyway.
 */
export async function readRollups(
  merchantId: string,
  family: RollupFamily,
  granularity: RollupGranularity,
  first: string,
  last: string,
): Promise<RollupItem[]> {
  const range = rollupKeys.range(first, last);
  const items: RollupItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: env.TABLE_NAME,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': rollupKeys.partition(merchantId, family, granularity), ':from': range.from, ':to': range.to },
        ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
      }),
    );
    for (const item of page.Items ?? []) items.push(rollupFromItem(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return items;
}
