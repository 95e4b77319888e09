import { GetCommand, PutCommand, paginateQuery, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ResourceNotFoundError, ValidationError } from '#core/errors';
import { idBody, timeOrderedId, timeOrderedIdFloor } from '#core/ids';
import { TEST_EVENT_TYPE } from '#core/webhooks/events';
import { env } from '#shared/env';
import { documentClient } from './client';
import { cappedIncrement, failedConditionAt } from './transact';
import { webhookDeliveryEntity, webhookDeliveryIdFor, webhookEndpointBodyOf, webhookEndpointEntity, webhookEndpointIdFor } from './entities/webhook-endpoint';
import type { TransactItem } from './customer-repository';
import { findDueEntries } from './due-index';
import { conditions, queries, WEBHOOK_DUE_SHARDS, webhookDueKeys, webhookKeys, webhookRecoveryKeys } from './keys';

/**
 * Outbound webhook endpoints (at most MAX_WEBHOOK_ENDPOINTS per merchant, kept by a count item in
 * the same transaction as each create and delete) and their delivery log. Signing secrets are
 * stored sealed only (adapters/secret-box); this module never sees them in clear.
 */
export const MAX_WEBHOOK_ENDPOINTS = 16;
/** How long the delivery log keeps an attempt (the table's TTL removes it after). */
export const DELIVERY_RETENTION_SECONDS = 30 * 24 * 3600;

export interface WebhookEndpointRecord {
  readonly id: string;
  readonly merchant_id: string;
  readonly url: string;
  /** Subscribed event names (A's or B's); every catalogued name when created without a list. */
  readonly events: readonly string[];
  readonly description: string | null;
  readonly enabled: boolean;
  /** The signing secret, sealed. */
  readonly secret_sealed: string;
  /** The secret a rotation replaced, sealed, and when it stops signing (24 h after the rotation). */
  readonly previous_secret_sealed: string | null;
  readonly previous_secret_expires_at: string | null;
  /** Why delivery stopped (a 410, the receiver's `webhook-delivery: disable`, 5 days of failures, the merchant); null while enabled. */
  readonly disabled_reason: string | null;
  readonly disabled_at: string | null;
  /** When the current streak of failed attempts began (the first failure after a success); null after a success. */
  readonly failing_since: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** What a delivery goes to: a webhook endpoint, or an automation platform's REST-hook subscription. */
export type DeliveryTarget = 'endpoint' | 'automation';

export interface WebhookDeliveryRecord {
  readonly id: string;
  readonly merchant_id: string;
  readonly endpoint_id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly attempt: number;
  readonly status: DeliveryStatus;
  readonly status_code: number | null;
  readonly duration_ms: number;
  readonly error: string | null;
  readonly next_attempt_at: string | null;
  readonly created_at: string;
}

export class WebhookEndpointNotFoundError extends ResourceNotFoundError {}

/** A new endpoint's id (time-ordered, so the list reads oldest first). */
export function newWebhookEndpointId(now: Date): string {
  return webhookEndpointIdFor(timeOrderedId(now));
}

function endpointKey(merchantId: string, endpointId: string) {
  const body = webhookEndpointBodyOf(endpointId);
  if (body === undefined) throw new WebhookEndpointNotFoundError(`No webhook endpoint ${endpointId}`, { param: 'id' });
  return webhookKeys.endpoint(merchantId, body);
}

/** Stores a new endpoint; 422 `param: url` past MAX_WEBHOOK_ENDPOINTS (the count and the endpoint are written together). */
export async function createWebhookEndpoint(record: WebhookEndpointRecord): Promise<void> {
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          cappedIncrement(webhookKeys.endpointCount(record.merchant_id), 'endpoint_count', MAX_WEBHOOK_ENDPOINTS),
          { Put: { TableName: env.TABLE_NAME, Item: webhookEndpointEntity.toItem(record), ConditionExpression: conditions.absent } },
        ],
      }),
    );
  } catch (error) {
    if (failedConditionAt(error) === 0) {
      throw new ValidationError(`A merchant has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints: delete one first`, { param: 'url', cause: error });
    }
    throw error;
  }
}

export async function getWebhookEndpoint(merchantId: string, endpointId: string): Promise<WebhookEndpointRecord> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: endpointKey(merchantId, endpointId), ConsistentRead: true }));
  if (Item === undefined) throw new WebhookEndpointNotFoundError(`No webhook endpoint ${endpointId}`, { param: 'id' });
  return webhookEndpointEntity.fromItem(Item);
}

/** Replaces an endpoint that exists (the caller read it and changed fields). */
export async function saveWebhookEndpoint(record: WebhookEndpointRecord): Promise<void> {
  try {
    await documentClient.send(
      new PutCommand({ TableName: env.TABLE_NAME, Item: webhookEndpointEntity.toItem(record), ConditionExpression: conditions.exists }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException')
      throw new WebhookEndpointNotFoundError(`No webhook endpoint ${record.id}`, { param: 'id' });
    throw error;
  }
}

/** Deletes an endpoint and frees its place in the count; 404 for an unknown id. */
export async function deleteWebhookEndpoint(merchantId: string, endpointId: string): Promise<void> {
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: env.TABLE_NAME, Key: endpointKey(merchantId, endpointId), ConditionExpression: conditions.exists } },
          {
            Update: {
              TableName: env.TABLE_NAME,
              Key: webhookKeys.endpointCount(merchantId),
              UpdateExpression: 'ADD endpoint_count :minus',
              ExpressionAttributeValues: { ':minus': -1 },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (failedConditionAt(error) === 0) throw new WebhookEndpointNotFoundError(`No webhook endpoint ${endpointId}`, { param: 'id', cause: error });
    throw error;
  }
}

/** The query of the merchant's endpoints, oldest first (cursor-paged by the API, read whole by dispatch: at most 16). */
export function endpointsQuery(merchantId: string) {
  return { TableName: env.TABLE_NAME, ...queries.partitionPrefix(webhookKeys.endpointPrefix(merchantId)) };
}

export const endpointFromItem = (item: Record<string, unknown>): WebhookEndpointRecord => webhookEndpointEntity.fromItem(item);

/** Every endpoint of the merchant (at most 16: one query). */
export async function listAllWebhookEndpoints(merchantId: string): Promise<WebhookEndpointRecord[]> {
  const { Items } = await documentClient.send(new QueryCommand({ ...endpointsQuery(merchantId), ConsistentRead: true }));
  return (Items ?? []).map(endpointFromItem);
}

/** Logs one delivery attempt (kept 30 days) under a fresh id: the test route's sends. */
export async function recordWebhookDelivery(input: Omit<WebhookDeliveryRecord, 'id' | 'created_at'>, now: Date): Promise<WebhookDeliveryRecord> {
  const record: WebhookDeliveryRecord = { ...input, id: webhookDeliveryIdFor(timeOrderedId(now)), created_at: now.toISOString() };
  await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: deliveryItem(record) }));
  return record;
}

/** What a pending row keeps for the attempt it stands for: the kind of target, and the attempt its series began with (absent: 1). */
export interface PendingAttempt {
  readonly target: DeliveryTarget;
  readonly series_start?: number | undefined;
}

const deliveryItem = (record: WebhookDeliveryRecord, pending?: PendingAttempt) =>
  webhookDeliveryEntity.toItem(
    {
      ...record,
      expires_at: Math.floor(Date.parse(record.created_at) / 1000) + DELIVERY_RETENTION_SECONDS,
      ...(pending === undefined ? {} : { target: pending.target }),
      ...(pending?.series_start === undefined ? {} : { series_start: pending.series_start }),
    },
    { due: pending !== undefined },
  );

/** One attempt's log row (strongly consistent), or undefined. */
export async function getDeliveryAttempt(merchantId: string, deliveryId: string): Promise<WebhookDeliveryRecord | undefined> {
  const body = webhookDeliveryBodyOf(deliveryId);
  if (body === undefined) return undefined;
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: webhookKeys.delivery(merchantId, body), ConsistentRead: true }));
  return Item === undefined ? undefined : deliveryFromItem(Item);
}

const webhookDeliveryBodyOf = (id: string): string | undefined => idBody(id, 'whd');

/** The Put of a final log row (delivered or failed): only over nothing or a pending row, so a final row is never rewritten. */
function finalRowPut(record: WebhookDeliveryRecord): TransactItem {
  return {
    Put: {
      TableName: env.TABLE_NAME,
      Item: deliveryItem(record),
      ConditionExpression: 'attribute_not_exists(PK) OR #status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending' },
    },
  };
}

/**
 * Writes an attempt's final row (the deterministic id of event × target × attempt) and, when the
 * next attempt waits longer than the queue can delay it, the next attempt's `pending` row with its
 * due-index entry, in one transaction. False when the attempt's row was final already (a
 * concurrent copy of the message logged it first): nothing is written then.
 */
export async function logDeliveryAttempt(record: WebhookDeliveryRecord, next?: { readonly pending: WebhookDeliveryRecord } & PendingAttempt): Promise<boolean> {
  try {
    if (next === undefined) {
      const put = finalRowPut(record).Put;
      await documentClient.send(new PutCommand(put as ConstructorParameters<typeof PutCommand>[0]));
    } else {
      await documentClient.send(
        new TransactWriteCommand({
          TransactItems: [finalRowPut(record), { Put: { TableName: env.TABLE_NAME, Item: deliveryItem(next.pending, next) } }],
        }),
      );
    }
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException' || failedConditionAt(error) === 0) return false;
    throw error;
  }
}

/**
 * Claims a pending retry the due index lists: removes its due entry, on the condition that it is
 * still that entry (two runs of the every-minute task claim it once). The row as it was, or
 * undefined when another run claimed it (or it is gone).
 */
export async function claimDueDelivery(merchantId: string, body: string, dueSortKey: string): Promise<(WebhookDeliveryRecord & PendingAttempt) | undefined> {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: webhookKeys.delivery(merchantId, body),
        UpdateExpression: 'REMOVE GSI4PK, GSI4SK',
        ConditionExpression: 'GSI4SK = :entry',
        ExpressionAttributeValues: { ':entry': dueSortKey },
        ReturnValues: 'ALL_OLD',
      }),
    );
    if (Attributes === undefined) return undefined;
    return {
      ...deliveryFromItem(Attributes),
      target: Attributes.target === 'automation' ? 'automation' : 'endpoint',
      ...(typeof Attributes.series_start === 'number' ? { series_start: Attributes.series_start } : {}),
    };
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/** Closes a `pending` attempt that will not be sent (its event or target is gone): `failed` with the reason, no next attempt. */
export async function closePendingDelivery(merchantId: string, deliveryId: string, reason: string): Promise<void> {
  const body = webhookDeliveryBodyOf(deliveryId);
  if (body === undefined) return;
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: webhookKeys.delivery(merchantId, body),
        UpdateExpression: 'SET #status = :failed, #error = :reason, next_attempt_at = :null REMOVE GSI4PK, GSI4SK',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
        ExpressionAttributeValues: { ':failed': 'failed', ':pending': 'pending', ':reason': reason, ':null': null },
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}

/** Puts a claimed retry's due entry back (its enqueue failed), for the next run. */
export async function restoreDueDelivery(merchantId: string, body: string, dueAt: string): Promise<void> {
  const entry = webhookDueKeys.entry(merchantId, body, dueAt);
  await documentClient.send(
    new UpdateCommand({
      TableName: env.TABLE_NAME,
      Key: webhookKeys.delivery(merchantId, body),
      UpdateExpression: 'SET GSI4PK = :pk, GSI4SK = :sk',
      ConditionExpression: 'attribute_exists(PK) AND #status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': entry.GSI4PK, ':sk': entry.GSI4SK, ':pending': 'pending' },
    }),
  );
}

/**
 * Starts an endpoint's failing streak at `now` unless one is running; the streak's start (`now`,
 * or the earlier one). Undefined when the endpoint is gone.
 */
export async function markEndpointFailing(merchantId: string, endpointId: string, now: Date): Promise<string | undefined> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: endpointKey(merchantId, endpointId),
        UpdateExpression: 'SET failing_since = :now',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(failing_since) OR attribute_type(failing_since, :null))',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':null': 'NULL' },
      }),
    );
    return now.toISOString();
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: endpointKey(merchantId, endpointId), ConsistentRead: true }));
    return Item === undefined ? undefined : (webhookEndpointEntity.fromItem(Item).failing_since ?? now.toISOString());
  }
}

/** Ends an endpoint's failing streak (a delivery succeeded). */
export async function clearEndpointFailing(merchantId: string, endpointId: string): Promise<void> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: endpointKey(merchantId, endpointId),
        UpdateExpression: 'SET failing_since = :null',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':null': null },
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}

/**
 * Disables an enabled endpoint with the reason, together with `also` (the outbox item announcing
 * it) in one transaction. False when it was disabled (or deleted) already: nothing is written.
 */
export async function disableWebhookEndpoint(
  merchantId: string,
  endpointId: string,
  reason: string,
  now: Date,
  also: readonly TransactItem[],
): Promise<boolean> {
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: env.TABLE_NAME,
              Key: endpointKey(merchantId, endpointId),
              UpdateExpression: 'SET enabled = :false, disabled_reason = :reason, disabled_at = :now, updated_at = :now',
              ConditionExpression: 'attribute_exists(PK) AND enabled = :true',
              ExpressionAttributeValues: { ':false': false, ':true': true, ':reason': reason, ':now': now.toISOString() },
            },
          },
          ...also,
        ],
      }),
    );
    return true;
  } catch (error) {
    if (failedConditionAt(error) === 0) return false;
    throw error;
  }
}

/** The query of the merchant's delivery log, newest first. */
export function deliveriesQuery(merchantId: string) {
  return { TableName: env.TABLE_NAME, ScanIndexForward: false, ...queries.partitionPrefix(webhookKeys.deliveryPrefix(merchantId)) };
}

export const deliveryFromItem = (item: Record<string, unknown>): WebhookDeliveryRecord => webhookDeliveryEntity.fromItem(item);

/** At most this many reads per page of the delivery log when filters skip most rows (the page is then shorter, with a cursor). */
const MAX_LOG_READS = 10;

/**
 * One page of the delivery log, newest first, optionally only one endpoint's or one status's
 * attempts. Each read asks for no more rows than the page still needs, so the page ends exactly
 * where DynamoDB stopped and `lastKey` continues it without losing a row.
 */
export async function readDeliveryLog(
  merchantId: string,
  filters: { readonly endpoint_id?: string | undefined; readonly status?: DeliveryStatus | undefined },
  limit: number,
  startKey: Record<string, unknown> | undefined,
): Promise<{ deliveries: WebhookDeliveryRecord[]; lastKey: Record<string, unknown> | undefined }> {
  const conditionsOf: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filters.endpoint_id !== undefined) {
    conditionsOf.push('#endpoint = :endpoint');
    names['#endpoint'] = 'endpoint_id';
    values[':endpoint'] = filters.endpoint_id;
  }
  if (filters.status !== undefined) {
    conditionsOf.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = filters.status;
  }
  const base = deliveriesQuery(merchantId);
  const deliveries: WebhookDeliveryRecord[] = [];
  let start = startKey;
  for (let read = 0; read < MAX_LOG_READS && deliveries.length < limit; read += 1) {
    const { Items, LastEvaluatedKey } = await documentClient.send(
      new QueryCommand({
        ...base,
        Limit: limit - deliveries.length,
        ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        ...(conditionsOf.length === 0
          ? {}
          : {
              FilterExpression: conditionsOf.join(' AND '),
              ExpressionAttributeNames: { ...base.ExpressionAttributeNames, ...names },
              ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ...values },
            }),
      }),
    );
    deliveries.push(...(Items ?? []).map(deliveryFromItem));
    start = LastEvaluatedKey;
    if (start === undefined) break;
  }
  return { deliveries, lastKey: start };
}

/** A pending retry the webhook due index says has come (GSI4, eventually consistent: the claim re-checks). */
export interface DueWebhookDelivery {
  readonly merchantId: string;
  readonly body: string;
  readonly dueAt: string;
  /** The due entry's sort key, the claim's condition. */
  readonly sortKey: string;
}

/** The pending retries due at `now` in every shard of the webhook due index, oldest first, at most `limit`: one Query per shard. */
export async function findDueWebhookDeliveries(now: Date, limit: number): Promise<DueWebhookDelivery[]> {
  const entries = await findDueEntries({ shards: WEBHOOK_DUE_SHARDS, ...webhookDueKeys }, now, limit);
  return entries.map((entry) => ({
    merchantId: entry.merchantId,
    body: entry.body,
    dueAt: entry.dueAt,
    sortKey: webhookDueKeys.entry(entry.merchantId, entry.body, entry.dueAt).GSI4SK,
  }));
}

/** Where one attempt of the log left its event, as a recovery weighs it. */
export interface AttemptState {
  readonly event_id: string;
  readonly event_type: string;
  readonly attempt: number;
  readonly status: DeliveryStatus;
  readonly next_attempt_at: string | null;
}

/**
 * The attempts to one endpoint whose scheduled time is `from` or later, oldest first, a page at a
 * time: one Query of the merchant's delivery log from `from` on (keys.ts webhookRecoveryKeys),
 * paged by DynamoDB (1 MB a page). The filter keeps this endpoint's rows of real events (not the
 * test route's sends) and the projection only what a recovery weighs, but a filter does not make
 * the reads cheaper: every row of every endpoint logged since `from` is read.
 */
export async function* endpointAttemptsFrom(merchantId: string, endpointId: string, from: Date): AsyncGenerator<AttemptState[]> {
  const range = webhookRecoveryKeys.deliveriesFrom(merchantId, timeOrderedIdFloor(from));
  const input = {
    TableName: env.TABLE_NAME,
    ...range,
    FilterExpression: '#endpoint = :endpoint AND #type <> :test',
    ProjectionExpression: '#event, #type, #attempt, #status, #next',
    ExpressionAttributeNames: {
      ...range.ExpressionAttributeNames,
      '#endpoint': 'endpoint_id',
      '#type': 'event_type',
      '#event': 'event_id',
      '#attempt': 'attempt',
      '#status': 'status',
      '#next': 'next_attempt_at',
    },
    ExpressionAttributeValues: { ...range.ExpressionAttributeValues, ':endpoint': endpointId, ':test': TEST_EVENT_TYPE },
  };
  for await (const page of paginateQuery({ client: documentClient }, input)) {
    yield (page.Items ?? []).map((item) => ({
      event_id: String(item.event_id),
      event_type: String(item.event_type),
      attempt: Number(item.attempt),
      status: item.status as DeliveryStatus,
      next_attempt_at: typeof item.next_attempt_at === 'string' ? item.next_attempt_at : null,
    }));
  }
}

/**
 * Logs a `pending` attempt before its message is enqueued (a recovery's), so that the log shows it
 * at once and a second recovery sees it pending; the consumer writes it final. Only where no row
 * is: false when the row exists already (a concurrent recovery wrote it), and nothing is written.
 */
export async function putPendingAttempt(record: WebhookDeliveryRecord): Promise<boolean> {
  try {
    await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: deliveryItem(record), ConditionExpression: conditions.absent }));
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
