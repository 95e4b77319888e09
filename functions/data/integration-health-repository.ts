import { QueryCommand, type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { timeOrderedIdFloor } from '#core/ids';
import type { Psp } from '#core/providers';
import { env } from '#shared/env';
import { documentClient } from './client';
import type { DeadLetteredEvent } from './dead-letter-repository';
import { deadLetteredEventEntity } from './entities/dead-lettered-event';
import { INTEGRATION_ENTITY, integrationKeys, keys, queries } from './keys';

/** How long an hourly signature-failure counter is kept: the 24 h the health routes read, and a day of margin. */
export const SIGNATURE_FAILURE_RETENTION_SECONDS = 48 * 3600;

/** The hour bucket of a time: `yyyy-mm-ddThh` (UTC). */
export const hourOf = (at: Date): string => at.toISOString().slice(0, 13);

/**
 * Counts one refused provider delivery (bad, missing or stale signature) in the merchant's hourly
 * counter for the provider: one UpdateItem (`ADD`), no condition, no read. Stores the count, the
 * time of the last failure and an expiry: nothing of the delivery (no body, header or address).
 */
export async function countSignatureFailure(merchantId: string, psp: Psp, now: Date = new Date()): Promise<void> {
  const hour = hourOf(now);
  await documentClient.send(
    new UpdateCommand({
      TableName: env.TABLE_NAME,
      Key: integrationKeys.signatureFailures(merchantId, hour, psp),
      UpdateExpression: 'ADD #count :one SET #entity = :entity, psp = :psp, #hour = :hour, last_at = :at, expires_at = :expires',
      ExpressionAttributeNames: { '#count': 'count', '#entity': 'entity', '#hour': 'hour' },
      ExpressionAttributeValues: {
        ':one': 1,
        ':entity': INTEGRATION_ENTITY.signatureFailures,
        ':psp': psp,
        ':hour': hour,
        ':at': now.toISOString(),
        ':expires': Math.floor(now.getTime() / 1000) + SIGNATURE_FAILURE_RETENTION_SECONDS,
      },
    }),
  );
}

/** One hour's signature failures of one provider. */
export interface SignatureFailureBucket {
  readonly psp: string;
  /** `yyyy-mm-ddThh` (UTC). */
  readonly hour: string;
  readonly count: number;
  readonly last_at: string;
}

/** The pages of a Query, in key order, up to `maxPages` (the callers bound it by time); `complete` when no page was left. */
async function queryPages(input: QueryCommandInput, maxPages = Number.POSITIVE_INFINITY): Promise<{ items: Record<string, unknown>[]; complete: boolean }> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  let pages = 0;
  do {
    const page = await documentClient.send(new QueryCommand({ ...input, ...(ExclusiveStartKey === undefined ? {} : { ExclusiveStartKey }) }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
    pages += 1;
  } while (ExclusiveStartKey !== undefined && pages < maxPages);
  return { items, complete: ExclusiveStartKey === undefined };
}

const queryAll = async (input: QueryCommandInput): Promise<Record<string, unknown>[]> => (await queryPages(input)).items;

/** The most 1 MB pages of stored deliveries one health request reads (newest first): beyond it, counts are lower bounds. */
export const MAX_DELIVERY_PAGES = 8;

/** The merchant's hourly signature-failure counters from the hour of `from` to the hour of `to`, every provider: one Query of at most 25 × 13 small items. */
export async function listSignatureFailures(merchantId: string, from: Date, to: Date): Promise<SignatureFailureBucket[]> {
  const items = await queryAll({ TableName: env.TABLE_NAME, ...integrationKeys.signatureFailureRange(merchantId, hourOf(from), hourOf(to)) });
  return items.map((item) => ({ psp: String(item.psp), hour: String(item.hour), count: Number(item.count), last_at: String(item.last_at) }));
}

/** A stored provider delivery as the health routes read it: its provider and time, nothing else. */
export interface ReceivedDelivery {
  readonly psp: string;
  readonly received_at: string;
}

/**
 * The merchant's provider deliveries stored since `since` (the intake stores one per provider
 * event), newest first: a Query of the `WHK#` range from the time-ordered id floor of `since`,
 * projecting provider and time (the read still costs the items' full size), at most
 * MAX_DELIVERY_PAGES pages; `complete` false when older deliveries of the window were left unread.
 */
export async function listDeliveriesSince(merchantId: string, since: Date): Promise<{ deliveries: ReceivedDelivery[]; complete: boolean }> {
  const { items, complete } = await queryPages(
    {
      TableName: env.TABLE_NAME,
      ...integrationKeys.webhookLogsFrom(merchantId, timeOrderedIdFloor(since)),
      ProjectionExpression: 'psp, received_at',
      ScanIndexForward: false,
    },
    MAX_DELIVERY_PAGES,
  );
  return { deliveries: items.map((item) => ({ psp: String(item.psp), received_at: String(item.received_at) })), complete };
}

/** The merchant's dead-lettered inbound events since `since`, oldest first: a Query of the `DEADLETTER#` range from the id floor of `since` (small items, no payload). */
export async function listDeadLettersSince(merchantId: string, since: Date): Promise<DeadLetteredEvent[]> {
  const items = await queryAll({ TableName: env.TABLE_NAME, ...integrationKeys.deadLettersFrom(merchantId, timeOrderedIdFloor(since)) });
  return items.map((item) => deadLetteredEventEntity.fromItem(item));
}

/** The providers the merchant has a webhook signing secret for: one Query of its `PSP#` items, projecting the provider only (never the secret). */
export async function listConfiguredProviders(merchantId: string): Promise<Set<string>> {
  const items = await queryAll({ TableName: env.TABLE_NAME, ...queries.partitionPrefix(keys.providerSecretPrefix(merchantId)), ProjectionExpression: 'psp' });
  return new Set(items.map((item) => String(item.psp)));
}
