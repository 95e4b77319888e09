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

/**
 * The table's changes as they happen, from its stream (every write is a record, with the item's
 * old and new image): after `changes()`, the `PK|SK` of every item added, removed or changed since
 * the last call (a write that left an item as it was, and the volatile entities, aside). Cheaper
 * than two scans of a large table around every request, and the same diff: each record's old and
 * new image are the item before and after.
 */
export async function watchTable(): Promise<{ changes: () => Promise<string[]>; stop: () => Promise<void> }> {
  const { LocalTableStream } = await import('#lib/local/table-stream');
  let changed: string[] = [];
  const stream = new LocalTableStream({
    endpoint: process.env.DYNAMODB_ENDPOINT as string,
    tableName: process.env.TABLE_NAME as string,
    handler: async (event) => {
      for (const record of event.Records) {
        const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage ?? {};
        if (VOLATILE_ENTITIES.has(String(image.entity?.S))) continue;
        if (canonical(record.dynamodb?.OldImage) === canonical(record.dynamodb?.NewImage)) continue;
        changed.push(`${String(image.PK?.S)}|${String(image.SK?.S)}`);
      }
    },
  });
  // What the stream held before the watch began is not a change to report.
  await stream.drain();
  changed = [];
  return {
    changes: async () => {
      await stream.poll();
      const found = changed;
      changed = [];
      return found;
    },
    stop: () => stream.stop(),
  };
}
