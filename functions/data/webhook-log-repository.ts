import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { timeOrderedId } from '#core/ids';
import type { Psp } from '#core/providers';
import { env } from '#shared/env';
import { documentClient } from './client';
import { webhookEventEntity, webhookLogBodyOf, webhookLogEntity, webhookLogIdFor, webhookLogLinkEntity, webhookLogLookupEntity } from './entities/webhook-log';
import { conditions, type ItemKey, webhookEventKeys, webhookLogKeys } from './keys';

export { webhookLogBodyOf, webhookLogIdFor } from './entities/webhook-log';

/**
 * Raw provider webhook deliveries, stored by the intake once verified and read by the
 * inbound-webhooks consumer. Each lives 30 days (the table's TTL attribute `expires_at`), and is
 * filed among the data (GSI2) of every customer it concerns once the consumer knows them, so
 * erasing any of them removes it.
 */
/** The `kind` of the message the intake enqueues on `inbound-webhooks` for each stored delivery. */
export const PROVIDER_WEBHOOK_KIND = 'provider_webhook';

export const WEBHOOK_LOG_RETENTION_SECONDS = 30 * 24 * 3600;

/** `default` for `/{psp}/{merchant_id}`, `invoice` for `/square/{merchant_id}/invoice`. */
export type WebhookRouteVariant = 'default' | 'invoice';

export interface WebhookLogRecord {
  /** `whk_<time-ordered body>`. */
  readonly id: string;
  readonly merchant_id: string;
  readonly psp: Psp;
  readonly route_variant: WebhookRouteVariant;
  /** The body as received: UTF-8 text, or base64 when `body_base64` (bytes that are not valid UTF-8). */
  readonly body: string;
  readonly body_base64: boolean;
  readonly content_type: string | null;
  /** The URL the provider posted to, as the intake derived it (Square signs it). */
  readonly url: string;
  readonly received_at: string;
  /** Epoch seconds: the table's TTL attribute. */
  readonly expires_at: number;
  /** Set once the consumer has filed the delivery under a customer. */
  readonly customer_id?: string;
}

export interface NewWebhookLog {
  readonly merchantId: string;
  readonly psp: Psp;
  readonly routeVariant: WebhookRouteVariant;
  readonly rawBody: Buffer;
  /** Only this header is kept: the others carry signatures and credentials (Basic auth). */
  readonly contentType: string | null;
  readonly url: string;
}

/** Whether the bytes are valid UTF-8 (a round trip keeps them). */
const isUtf8 = (bytes: Buffer): boolean => Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);

/** The body bytes of a stored delivery, exactly as received. */
export const rawBodyOf = (record: WebhookLogRecord): Buffer => Buffer.from(record.body, record.body_base64 ? 'base64' : 'utf8');

/**
 * Stores a verified delivery with its 30-day expiry; returns the record (its id goes on the queue).
 *
 * @example const log = await putWebhookLog({ merchantId, psp: 'stripe', routeVariant: 'default', rawBody, contentType, url }, new Date());
 */
export async function putWebhookLog(input: NewWebhookLog, now: Date = new Date()): Promise<WebhookLogRecord> {
  const { item, record } = newWebhookLogItem(input, now);
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: env.TABLE_NAME, Item: item, ConditionExpression: conditions.absent } },
        { Put: { TableName: env.TABLE_NAME, Item: lookupItemOf(record) } },
      ],
    }),
  );
  return record;
}

/** The lookup that finds a delivery by its id alone (GET /internal/webhook/{id}), expiring with it. */
const lookupItemOf = (record: WebhookLogRecord): Record<string, unknown> =>
  webhookLogLookupEntity.toItem({ webhook_log_id: record.id, merchant_id: record.merchant_id, expires_at: record.expires_at });

function newWebhookLogItem(input: NewWebhookLog, now: Date): { item: Record<string, unknown>; record: WebhookLogRecord } {
  const body = timeOrderedId(now);
  const utf8 = isUtf8(input.rawBody);
  const record: WebhookLogRecord = {
    id: webhookLogIdFor(body),
    merchant_id: input.merchantId,
    psp: input.psp,
    route_variant: input.routeVariant,
    body: utf8 ? input.rawBody.toString('utf8') : input.rawBody.toString('base64'),
    body_base64: !utf8,
    content_type: input.contentType,
    url: input.url,
    received_at: now.toISOString(),
    expires_at: Math.floor(now.getTime() / 1000) + WEBHOOK_LOG_RETENTION_SECONDS,
  };
  return { item: webhookLogEntity.toItem(record), record };
}

/** What putWebhookLogOnce did: stored the delivery now, or found the event's first delivery. */
export interface WebhookLogOnce {
  /** The stored delivery of the event (this one when `created`, else the first). */
  readonly id: string;
  readonly created: boolean;
  /** Whether the stored delivery is known to be on the inbound-webhooks queue (markWebhookEventEnqueued). */
  readonly enqueued: boolean;
}

/**
 * Stores a verified delivery once per provider event: one transaction puts the delivery and the
 * event's marker (`eventIdentity`: a digest of the delivery's provider event ids), on the condition
 * that the marker is absent. A replay of the event stores nothing and returns the first delivery's
 * id, and whether that one was enqueued, so the intake enqueues it at most once (again only when
 * the first intake failed between storing and enqueueing). The marker expires with the delivery.
 *
 * @example const once = await putWebhookLogOnce({ ...delivery, eventIdentity }, new Date());
 */
export async function putWebhookLogOnce(input: NewWebhookLog & { readonly eventIdentity: string }, now: Date = new Date()): Promise<WebhookLogOnce> {
  const { item, record } = newWebhookLogItem(input, now);
  const event = { merchant_id: input.merchantId, psp: input.psp, identity: input.eventIdentity };
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: env.TABLE_NAME,
              Item: webhookEventEntity.toItem({ webhook_log_id: record.id, enqueued: false, expires_at: record.expires_at }, event),
              ConditionExpression: conditions.absent,
            },
          },
          { Put: { TableName: env.TABLE_NAME, Item: item, ConditionExpression: conditions.absent } },
          { Put: { TableName: env.TABLE_NAME, Item: lookupItemOf(record) } },
        ],
      }),
    );
    return { id: record.id, created: true, enqueued: false };
  } catch (error) {
    if (!(error instanceof TransactionCanceledException) || error.CancellationReasons?.[0]?.Code !== 'ConditionalCheckFailed') throw error;
  }
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: webhookEventKeys.event(event.merchant_id, event.psp, event.identity), ConsistentRead: true }),
  );
  if (Item === undefined) throw new Error('webhook event marker vanished while it was read');
  const marker = webhookEventEntity.fromItem(Item);
  return { id: marker.webhook_log_id, created: false, enqueued: marker.enqueued === true };
}

/** Records that the event's stored delivery is on the inbound-webhooks queue (after the send). */
export async function markWebhookEventEnqueued(merchantId: string, psp: Psp, eventIdentity: string): Promise<void> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: webhookEventKeys.event(merchantId, psp, eventIdentity),
        UpdateExpression: 'SET enqueued = :true',
        ConditionExpression: conditions.exists,
        ExpressionAttributeValues: { ':true': true },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** A stored delivery, or undefined when it expired, was erased with its customer, or never existed. */
export async function getWebhookLog(merchantId: string, id: string): Promise<WebhookLogRecord | undefined> {
  const body = webhookLogBodyOf(id);
  if (body === undefined) return undefined;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: webhookLogKeys.delivery(merchantId, body), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : webhookLogEntity.fromItem(Item);
}

/**
 * Files a stored delivery among the customer's data (GSI2), so erasing the customer removes it.
 * Nothing happens when the delivery is gone (expired or already erased).
 */
export async function tagWebhookLogWithCustomer(merchantId: string, id: string, customerId: string): Promise<void> {
  const body = webhookLogBodyOf(id);
  if (body === undefined) return;
  const tag = webhookLogKeys.customerTag(merchantId, customerId, body);
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: webhookLogKeys.delivery(merchantId, body),
        UpdateExpression: 'SET GSI2PK = :pk, GSI2SK = :sk, customer_id = :customer',
        ConditionExpression: conditions.exists,
        ExpressionAttributeValues: { ':pk': tag.GSI2PK, ':sk': tag.GSI2SK, ':customer': customerId },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Files a stored delivery among the data of every customer it concerns, so that erasing any one
 * of them removes it. The first customer's tag goes on the delivery itself
 * (tagWebhookLogWithCustomer); each further customer (a batch, such as Adyen's) gets a small link
 * item, ids only, tagged with that customer's data key: erasing that customer deletes the link and
 * the delivery it names (functions/services/erase-customer.ts). Links expire with the delivery, and a
 * redelivery writes the same items again.
 *
 * @example await fileWebhookLogUnderCustomers('merch_1', record, ['cust_01J…', 'cust_01K…']);
 */
export async function fileWebhookLogUnderCustomers(merchantId: string, record: WebhookLogRecord, customerIds: readonly string[]): Promise<void> {
  const body = webhookLogBodyOf(record.id);
  const [first, ...others] = new Set(customerIds);
  if (body === undefined || first === undefined) return;
  await Promise.all(
    others.map((customerId) =>
      documentClient.send(
        new PutCommand({
          TableName: env.TABLE_NAME,
          Item: webhookLogLinkEntity.toItem({ webhook_log_id: record.id, customer_id: customerId, expires_at: record.expires_at }, { merchant_id: merchantId }),
        }),
      ),
    ),
  );
  await tagWebhookLogWithCustomer(merchantId, record.id, first);
}

/**
 * The key of the stored delivery a link item (ENTITY.webhookLogLink) names, for erasure; undefined
 * when it is already gone (expired, or erased with another customer it concerns).
 */
export async function linkedWebhookLogKey(merchantId: string, link: { readonly webhook_log_id?: unknown }): Promise<ItemKey | undefined> {
  const body = typeof link.webhook_log_id === 'string' ? webhookLogBodyOf(link.webhook_log_id) : undefined;
  if (body === undefined) return undefined;
  const key = webhookLogKeys.delivery(merchantId, body);
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: key, ConsistentRead: true, ProjectionExpression: 'PK' }));
  return Item === undefined ? undefined : key;
}

/** Deletes a stored delivery (one that names an erased customer, so erasure could not find it). */
export async function deleteWebhookLog(merchantId: string, id: string): Promise<void> {
  const body = webhookLogBodyOf(id);
  if (body === undefined) return;
  await documentClient.send(new DeleteCommand({ TableName: env.TABLE_NAME, Key: webhookLogKeys.delivery(merchantId, body) }));
}
