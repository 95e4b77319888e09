import { BatchWriteCommand, DeleteCommand, GetCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';
import { webhookLogLookupEntity } from './entities/webhook-log';
import { type ItemKey, internalKeys, webhookLogKeys } from './keys';
import { getWebhookLog, webhookLogBodyOf, type WebhookLogRecord } from './webhook-log-repository';

/**
 * Stored provider deliveries found by their id alone (the internal routes): through the lookup
 * item written with each delivery (internalKeys.webhookLogById), which names its merchant.
 */

/** The merchant of a delivery's id, from its lookup; undefined when there is none (expired, cleaned up, or never stored). */
async function merchantOf(body: string): Promise<string | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: internalKeys.webhookLogById(body), ConsistentRead: true }));
  return Item === undefined ? undefined : webhookLogLookupEntity.fromItem(Item).merchant_id;
}

/** A stored delivery by its id; undefined when the id has another shape, or nothing is stored under it (expired, erased, cleaned up). */
export async function findWebhookLogById(id: string): Promise<WebhookLogRecord | undefined> {
  const body = webhookLogBodyOf(id);
  if (body === undefined) return undefined;
  const merchantId = await merchantOf(body);
  return merchantId === undefined ? undefined : getWebhookLog(merchantId, id);
}

/** What a cleanup deleted: the payload (0 or 1) and its links to further customers. */
export interface WebhookLogCleanup {
  readonly merchant_id: string | null;
  readonly payloads_deleted: number;
  readonly links_deleted: number;
}

const BATCH = 25;

async function deleteKeys(keys: readonly ItemKey[]): Promise<void> {
  for (let start = 0; start < keys.length; start += BATCH) {
    let requests: Record<string, unknown>[] | undefined = keys.slice(start, start + BATCH).map((Key) => ({ DeleteRequest: { Key } }));
    // Unprocessed items (throttling) are sent again until none are left.
    while (requests !== undefined && requests.length > 0) {
      const { UnprocessedItems } = await documentClient.send(new BatchWriteCommand({ RequestItems: { [env.TABLE_NAME]: requests } }));
      requests = UnprocessedItems?.[env.TABLE_NAME] as Record<string, unknown>[] | undefined;
    }
  }
}

/**
 * Deletes a stored delivery for erasure: its links to further customers, the payload, then the
 * lookup (last, so a cleanup cut short is finished by calling it again). Idempotent: an id with
 * nothing stored deletes nothing and says so.
 */
export async function cleanUpWebhookLog(id: string): Promise<WebhookLogCleanup> {
  const body = webhookLogBodyOf(id);
  const nothing: WebhookLogCleanup = { merchant_id: null, payloads_deleted: 0, links_deleted: 0 };
  if (body === undefined) return nothing;
  const merchantId = await merchantOf(body);
  if (merchantId === undefined) return nothing;
  const links: ItemKey[] = [];
  const query = { TableName: env.TABLE_NAME, ConsistentRead: true, ProjectionExpression: 'PK, SK', ...internalKeys.webhookLogLinks(merchantId, body) };
  for await (const page of paginateQuery({ client: documentClient }, query)) {
    for (const item of page.Items ?? []) links.push({ PK: String(item.PK), SK: String(item.SK) });
  }
  await deleteKeys(links);
  const { Attributes } = await documentClient.send(
    new DeleteCommand({ TableName: env.TABLE_NAME, Key: webhookLogKeys.delivery(merchantId, body), ReturnValues: 'ALL_OLD' }),
  );
  await documentClient.send(new DeleteCommand({ TableName: env.TABLE_NAME, Key: internalKeys.webhookLogById(body) }));
  return { merchant_id: merchantId, payloads_deleted: Attributes === undefined ? 0 : 1, links_deleted: links.length };
}
