import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#data/client';
import { ENTITY } from '#data/keys';

/** Every item of the table, by `PK|SK`, as canonical JSON. */
export type TableSnapshot = ReadonlyMap<string, string>;

/**
 * Items a request may write whatever it answers, so the diff passes over them: the per-key
 * rate-limit window counts every request, a refused one too (DESIGN §1: 429s and errors after
 * authentication carry the headers).
 */
const VOLATILE_ENTITIES: ReadonlySet<string> = new Set([ENTITY.rateLimitWindow]);

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) && !(inner instanceof Set)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner instanceof Set
        ? [...inner].sort()
        : inner,
  );

/** The whole test table (a Scan: the suite's own table, never a request path). */
export async function scanTable(): Promise<TableSnapshot> {
  const items = new Map<string, string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(new ScanCommand({ TableName: process.env.TABLE_NAME, ConsistentRead: true, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      if (VOLATILE_ENTITIES.has(String(item.entity))) continue;
      items.set(`${String(item.PK)}|${String(item.SK)}`, canonical(item));
    }
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return items;
}

/** The items added, removed or changed between two snapshots, by `PK|SK`. */
export function diffTables(before: TableSnapshot, after: TableSnapshot): string[] {
  const changed: string[] = [];
  for (const [key, value] of after) if (before.get(key) !== value) changed.push(key);
  for (const key of before.keys()) if (!after.has(key)) changed.push(key);
  return changed;
}

/** The items of a snapshot that mention `needle` anywhere (a key, an attribute, a nested value). */
export const itemsMentioning = (snapshot: TableSnapshot, needle: string): string[] =>
  [...snapshot].filter(([, value]) => value.toLowerCase().includes(needle.toLowerCase())).map(([key]) => key);
