import { paginateQuery, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';

type Item = Record<string, unknown>;
/** A Query as the readers below page through it themselves. */
export type QueryInput = Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'>;

/** Reads up to `limit` items of one query, in its order (pages of at most 1,000 items). */
export async function readUpTo(input: QueryInput, limit: number): Promise<Item[]> {
  const items: Item[] = [];
  if (limit <= 0) return items;
  for await (const page of paginateQuery({ client: documentClient, pageSize: Math.min(1000, limit) }, input)) {
    for (const item of page.Items ?? []) if (items.length < limit) items.push(item);
    if (items.length >= limit) break;
  }
  return items;
}

/** How many items one query matches (Select COUNT, every page). */
export async function countOf(input: QueryInput): Promise<number> {
  let count = 0;
  for await (const page of paginateQuery({ client: documentClient, pageSize: 1000 }, { ...input, Select: 'COUNT' })) count += page.Count ?? 0;
  return count;
}
