import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { timeOrderedIdFloor } from '#core/ids';
import { type MeteredRecovery, type MeteringRecord, meteredRecoveryOf } from '#core/metering';
import { env } from '#shared/env';
import { documentClient } from './client';
import { meteringEntity } from './entities/metering';
import { automationKeys, conditions, dailyJobKeys } from './keys';

const DAY_MS = 86_400_000;

/** The name a recovery's outbound event is filed under in the type index GSI1 (its first name; outbound-event entity). */
const RECOVERED_EVENT = 'payment.recovered';

/**
 * The recoveries of one UTC day, from the `payment.recovered` events recorded in each recovery's
 * transaction: one range Query on the merchant's partition of the per-type event index (GSI1, event
 * bodies are time-ordered), more pages only past 1 MB. Events are kept 30 days (and go with an
 * erased customer), so a day can be metered within 30 days of it.
 */
export async function recoveriesOfDay(merchantId: string, day: string): Promise<MeteredRecovery[]> {
  const start = new Date(`${day}T00:00:00.000Z`);
  const [from, to] = [timeOrderedIdFloor(start), timeOrderedIdFloor(new Date(start.getTime() + DAY_MS))];
  const { GSI1PK } = automationKeys.eventByType(merchantId, RECOVERED_EVENT, from, 'GSI1');
  const recoveries: MeteredRecovery[] = [];
  const input = {
    TableName: env.TABLE_NAME,
    IndexName: 'GSI1',
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': 'GSI1PK', '#sk': 'GSI1SK', '#data': 'data' },
    ExpressionAttributeValues: { ':pk': GSI1PK, ':from': from, ':to': to },
    ProjectionExpression: '#sk, #data',
  };
  for await (const page of paginateQuery({ client: documentClient, pageSize: 1000 }, input)) {
    for (const item of page.Items ?? []) {
      // `to` is the floor of the next day: an event id there would be of the next day's first millisecond.
      if ((item.GSI1SK as string) >= to) continue;
      const recovery = meteredRecoveryOf(((item.data as { object?: Record<string, unknown> } | undefined)?.object ?? {}) as Record<string, unknown>);
      if (recovery !== undefined) recoveries.push(recovery);
    }
  }
  return recoveries;
}

/**
 * Writes a day's metering. `replace`: the item is rewritten whatever it held (a rerun writes the
 * same figures); otherwise it is written only when the day has none yet (false when it had).
 */
export async function putMetering(record: MeteringRecord, replace: boolean): Promise<boolean> {
  try {
    await documentClient.send(
      new PutCommand({ TableName: env.TABLE_NAME, Item: meteringEntity.toItem(record), ...(replace ? {} : { ConditionExpression: conditions.absent }) }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** A merchant's metering items from day `from` to day `to` (both included), oldest first: one Query (a year is 366 small items). */
export async function listMetering(merchantId: string, from: string, to: string): Promise<MeteringRecord[]> {
  const records: MeteringRecord[] = [];
  const input = { TableName: env.TABLE_NAME, ...dailyJobKeys.meteringRange(merchantId, from, to), ConsistentRead: true };
  for await (const page of paginateQuery({ client: documentClient, pageSize: 400 }, input)) {
    for (const item of page.Items ?? []) records.push(meteringEntity.fromItem(item));
  }
  return records;
}
