import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type UpcomingChargeRecord, upcomingChargeBodyOf } from '#core/upcoming-charges';
import { env } from '#shared/env';
import { documentClient } from './client';
import { itemsOfPartitions } from './due-index';
import { upcomingChargeEntity } from './entities/upcoming-charge';
import { UPCOMING_CHARGE_SHARDS, upcomingChargeKeys } from './keys';

/** How long an upcoming charge is kept after it is due (TTL). */
const KEPT_AFTER_DUE_SECONDS = 30 * 86_400;

/**
 * Stores an upcoming charge: a Put on its derived key, so the same renewal announced again
 * replaces it (its amount and event are the newest; `created_at` is kept by the caller).
 */
export async function putUpcomingCharge(charge: UpcomingChargeRecord): Promise<void> {
  const expires = Math.floor(Date.parse(charge.due_at) / 1000) + KEPT_AFTER_DUE_SECONDS;
  await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: upcomingChargeEntity.toItem({ ...charge, expires_at: expires }) }));
}

/** One upcoming charge (consistent read), or undefined. */
export async function getUpcomingCharge(merchantId: string, id: string): Promise<UpcomingChargeRecord | undefined> {
  const body = upcomingChargeBodyOf(id);
  if (body === undefined) return undefined;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: upcomingChargeKeys.charge(merchantId, body), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : upcomingChargeEntity.fromItem(Item);
}

/**
 * The upcoming charges of every merchant due on a UTC day (`YYYY-MM-DD`): one paged Query per shard
 * of the index (GSI1), never a Scan. Whole items: the task needs their amount and customer.
 */
export async function* chargesDueOn(day: string): AsyncGenerator<UpcomingChargeRecord> {
  const shards = Array.from({ length: UPCOMING_CHARGE_SHARDS }, (_, shard) => upcomingChargeKeys.shardPk(day, shard));
  for await (const item of itemsOfPartitions(shards)) yield upcomingChargeEntity.fromItem(item);
}
