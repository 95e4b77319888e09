import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { timeOrderedIdFloor } from '#core/ids';
import { env } from '#shared/env';
import { documentClient } from './client';
import { type ItemKey, messageKeys, paymentKeys, type RollupFamily, type RollupGranularity, rollupKeys } from './keys';
import { type RollupItem, rollupFromItem } from './rollup-queries';

type Item = Record<string, unknown>;

const DAY_MS = 86_400_000;

/**
 * How many days before a day the recompute looks for messages sent on it: a message is filed by
 * its creation time and sent later (quiet hours, a held sending pause). One held longer is not
 * recomputed (its stored counts show as drift).
 */
export const MESSAGE_LOOKBACK_DAYS = 7;

/** Every item of one partition whose sort key lies between two bounds, strongly consistent, every page. */
async function readBetween(pk: string, from: string, to: string): Promise<Item[]> {
  const items: Item[] = [];
  const input = {
    TableName: env.TABLE_NAME,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
    ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': to },
    ConsistentRead: true,
  };
  for await (const page of paginateQuery({ client: documentClient, pageSize: 1000 }, input)) items.push(...(page.Items ?? []));
  return items;
}

/** The sort-key bounds of time-ordered bodies created from `from` (included) to `to` (excluded). */
const bodyRange = (key: (body: string) => ItemKey, from: Date, to: Date) => ({
  pk: key(timeOrderedIdFloor(from)).PK,
  from: key(timeOrderedIdFloor(from)).SK,
  to: key(timeOrderedIdFloor(to)).SK,
});

/**
 * The source items the rollups of one UTC day (`YYYY-MM-DD`) are made of, as stored (every
 * attribute; a projection reads what it needs): the payments created that day (their bodies are
 * time-ordered, so one range Query on `PAY#`) and the messages created in the
 * MESSAGE_LOOKBACK_DAYS before it or on it (a range Query on `MSG#`; whether one was sent that day
 * is the projection's business). Items of other days come along at the range's edges; their
 * contributions fall outside the day and are dropped by the caller.
 */
export async function rollupSourceItems(merchantId: string, day: string): Promise<Item[]> {
  const start = new Date(`${day}T00:00:00.000Z`);
  const end = new Date(start.getTime() + DAY_MS);
  const payments = bodyRange((body) => paymentKeys.payment(merchantId, body), start, end);
  const messages = bodyRange((body) => messageKeys.message(merchantId, body), new Date(start.getTime() - MESSAGE_LOOKBACK_DAYS * DAY_MS), end);
  const [paymentItems, messageItems] = await Promise.all([
    readBetween(payments.pk, payments.from, payments.to),
    readBetween(messages.pk, messages.from, messages.to),
  ]);
  return [...paymentItems, ...messageItems];
}

/** A stored rollup item with its key. */
export interface StoredRollup extends RollupItem {
  readonly key: ItemKey;
}

/**
 * The stored rollup items of one family and granularity for one UTC day: its 24 hour buckets or
 * its day bucket. One Query (more pages only past 1 MB), strongly consistent.
 */
export async function storedRollupsOfDay(merchantId: string, family: RollupFamily, granularity: RollupGranularity, day: string): Promise<StoredRollup[]> {
  const range = granularity === 'H' ? rollupKeys.range(`${day}T00`, `${day}T23`) : rollupKeys.range(day, day);
  const items = await readBetween(rollupKeys.partition(merchantId, family, granularity), range.from, range.to);
  return items.map((item) => ({ ...rollupFromItem(item), key: { PK: item.PK as string, SK: item.SK as string } }));
}
