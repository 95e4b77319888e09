import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { idBody, timeOrderedId } from '#core/ids';
import { env } from '#shared/env';
import { batchGetItems } from './batch-get';
import { documentClient } from './client';
import { outboundEventEntity, outboundEventIdFor } from './entities/outbound-event';
import { automationKeys, queries, retryKeys } from './keys';
import type { TransactItem } from './customer-repository';

/**
 * Outbound events (DESIGN §1 payload `{ id, type, created_at, merchant_id, data: { object } }`),
 * recorded in the transaction of the change they report, for the outbound webhooks to deliver.
 * One item per event; `types` holds the A and B names of the same fact (`payment.recovered` and
 * `recovery.succeeded`), so an endpoint subscribed to either gets it once. Filed among the
 * customer's data (erasure) and kept 30 days.
 */
export interface OutboundEvent {
  readonly id: string;
  readonly types: readonly string[];
  readonly created_at: string;
  readonly merchant_id: string;
  readonly data: { readonly object: Readonly<Record<string, unknown>> };
}

const RETENTION_SECONDS = 30 * 24 * 3600;

/**
 * The Put of an outbound event, for the transaction of the change it reports. `customerId` files it
 * among that customer's data (erasure removes it); null for an event about no customer (an
 * endpoint disabled, a customer erased), which is the merchant's.
 */
export function outboundEventItem(
  merchantId: string,
  customerId: string | null,
  types: readonly string[],
  object: Readonly<Record<string, unknown>>,
  now: Date,
): TransactItem {
  const body = timeOrderedId(now);
  const event: OutboundEvent = { id: outboundEventIdFor(body), types, created_at: now.toISOString(), merchant_id: merchantId, data: { object } };
  const expiresAt = Math.floor(now.getTime() / 1000) + RETENTION_SECONDS;
  return { Put: { TableName: env.TABLE_NAME, Item: outboundEventEntity.toItem({ ...event, expires_at: expiresAt }, { customer_id: customerId }) } };
}

/** The merchant's outbound events, oldest first (one page of up to `limit`). */
export async function listOutboundEvents(merchantId: string, limit = 100): Promise<OutboundEvent[]> {
  const { Items } = await documentClient.send(
    new QueryCommand({ TableName: env.TABLE_NAME, Limit: limit, ...queries.partitionPrefix(retryKeys.outboundEventPrefix(merchantId)) }),
  );
  return (Items ?? []).map((item) => outboundEventEntity.fromItem(item));
}

/** How many events a poll answers (spec limits: "Automation polling: last 50 events"). */
export const POLL_LIMIT = 50;

/**
 * The merchant's last `limit` outbound events carrying any of `names` (the A and B names of one
 * fact), newest first: one Query per name on each of the two type indexes (an event's first name
 * is in GSI1, its second in GSI3), in parallel, merged by event id (time-ordered). At most
 * 2 × names × limit items read, whatever the merchant's volume.
 */
export async function listRecentOutboundEventsOfType(merchantId: string, names: readonly string[], limit = POLL_LIMIT): Promise<OutboundEvent[]> {
  const pages = await Promise.all(
    names.flatMap((name) =>
      (['GSI1', 'GSI3'] as const).map((index) =>
        documentClient.send(new QueryCommand({ TableName: env.TABLE_NAME, Limit: limit, ...automationKeys.eventsOfType(merchantId, name, index) })),
      ),
    ),
  );
  const events = pages.flatMap(({ Items }) => (Items ?? []).map((item) => outboundEventEntity.fromItem(item)));
  const byId = new Map(events.map((event) => [event.id, event]));
  return [...byId.values()].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).slice(0, limit);
}

/** The event (strongly consistent), or undefined when it is gone (erased with its customer, or expired) or the id is not an event's. */
export async function getOutboundEvent(merchantId: string, eventId: string): Promise<OutboundEvent | undefined> {
  const body = idBody(eventId, 'evt');
  if (body === undefined) return undefined;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: retryKeys.outboundEvent(merchantId, body), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : outboundEventEntity.fromItem(Item);
}

/**
 * The events of these ids that are still stored (strongly consistent; batchGetItems), by id. An id
 * of no event (erased, expired, not an event's) is absent from the map.
 */
export async function getOutboundEvents(merchantId: string, eventIds: readonly string[]): Promise<Map<string, OutboundEvent>> {
  const bodies = [...new Set(eventIds)].map((id) => idBody(id, 'evt')).filter((body): body is string => body !== undefined);
  const items = await batchGetItems(
    bodies.map((body) => retryKeys.outboundEvent(merchantId, body)),
    { consistent: true, what: `Outbound events of ${merchantId}` },
  );
  const found = new Map<string, OutboundEvent>();
  for (const item of items) {
    const event = outboundEventEntity.fromItem(item);
    found.set(event.id, event);
  }
  return found;
}

/** Whether the event was marked dispatched (strongly consistent): a redelivered stream record then has nothing to do. */
export async function wasDispatched(merchantId: string, eventId: string): Promise<boolean> {
  const body = idBody(eventId, 'evt');
  if (body === undefined) return false;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: retryKeys.outboundEvent(merchantId, body), ConsistentRead: true, ProjectionExpression: 'dispatched_at' }),
  );
  return Item?.dispatched_at !== undefined;
}

/**
 * Marks the event dispatched, once its first attempts are enqueued, on the condition that it
 * exists and was not marked before: true for the one caller that marks it. The mark is an update,
 * so it does not trigger the dispatcher again (which takes inserts only).
 */
export async function markDispatched(merchantId: string, eventId: string, now: Date): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: retryKeys.outboundEvent(merchantId, idBody(eventId, 'evt') as string),
        UpdateExpression: 'SET dispatched_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(dispatched_at)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
