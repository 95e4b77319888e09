import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ResourceNotFoundError, ValidationError } from '#core/errors';
import { timeOrderedId } from '#core/ids';
import { env } from '#shared/env';
import { documentClient } from './client';
import { webhookDeliveryEntity, webhookDeliveryIdFor, webhookEndpointBodyOf, webhookEndpointEntity, webhookEndpointIdFor } from './entities/webhook-endpoint';
import { conditions, queries, webhookKeys } from './keys';

/**
 * Outbound webhook endpoints (at most MAX_WEBHOOK_ENDPOINTS per merchant, kept by a count item in
 * the same transaction as each create and delete) and their delivery log. Signing secrets are
 * stored sealed only (adapters/secret-box); this module never sees them in clear.
 */
export const MAX_WEBHOOK_ENDPOINTS = 16;
const DELIVERY_RETENTION_SECONDS = 30 * 24 * 3600;

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
  readonly created_at: string;
  readonly updated_at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

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

function failedConditionAt(error: unknown): number | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const index = error.CancellationReasons?.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
  return index === undefined || index < 0 ? undefined : index;
}

/** Stores a new endpoint; 422 `param: url` past MAX_WEBHOOK_ENDPOINTS (the count and the endpoint are written together). */
export async function createWebhookEndpoint(record: WebhookEndpointRecord): Promise<void> {
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: env.TABLE_NAME,
              Key: webhookKeys.endpointCount(record.merchant_id),
              UpdateExpression: 'ADD endpoint_count :one',
              ConditionExpression: 'attribute_not_exists(endpoint_count) OR endpoint_count < :max',
              ExpressionAttributeValues: { ':one': 1, ':max': MAX_WEBHOOK_ENDPOINTS },
            },
          },
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

/** Logs one delivery attempt (kept 30 days). */
export async function recordWebhookDelivery(input: Omit<WebhookDeliveryRecord, 'id' | 'created_at'>, now: Date): Promise<WebhookDeliveryRecord> {
  const record: WebhookDeliveryRecord = { ...input, id: webhookDeliveryIdFor(timeOrderedId(now)), created_at: now.toISOString() };
  const expiresAt = Math.floor(now.getTime() / 1000) + DELIVERY_RETENTION_SECONDS;
  await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: webhookDeliveryEntity.toItem({ ...record, expires_at: expiresAt }) }));
  return record;
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
