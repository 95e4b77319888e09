import { createHash, randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IngestResult } from '#core/ingest/ingest-event';
import { env } from '#shared/env';
import { documentClient } from './client';
import { ENTITY, ingestKeys } from './keys';

/** How long a delivery is remembered: providers redeliver for up to 3 days (Stripe); a margin on top. */
export const INGEST_RETENTION_SECONDS = 30 * 24 * 3600;

/** A claim older than this belongs to a delivery that died mid-flight (Lambda timeout is 10 s). */
export const INGEST_LEASE_SECONDS = 30;

/**
 * The stand of a dedupe key after a claim: ours to process (`token` proves it), already done
 * (with the first delivery's result), or being processed by another delivery right now.
 */
export type IngestClaim =
  | { readonly state: 'claimed'; readonly token: string }
  | { readonly state: 'done'; readonly result: IngestResult }
  | { readonly state: 'in_progress' };

const hashOf = (dedupeKey: string): string => createHash('sha256').update(dedupeKey).digest('hex');
/** Leases and retention run on the clock, whatever `now` an event is ingested at. */
const clockSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * Claims a dedupe key for processing with one conditional put: it succeeds when the key is new,
 * expired (TTL deletes lazily) or held by a claim whose lease ran out. Otherwise the record that
 * stands is returned, read consistently.
 */
export async function claimIngestEvent(merchantId: string, dedupeKey: string, eventId: string, now: Date): Promise<IngestClaim> {
  const key = ingestKeys.event(merchantId, hashOf(dedupeKey));
  const token = randomBytes(12).toString('hex');
  const at = clockSeconds();
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: {
          ...key,
          entity: ENTITY.ingestEvent,
          dedupe_key: dedupeKey,
          event_id: eventId,
          state: 'in_progress',
          token,
          lease_until: at + INGEST_LEASE_SECONDS,
          created_at: now.toISOString(),
          expires_at: at + INGEST_RETENTION_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR expires_at < :now OR (#state = :in_progress AND lease_until < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':now': at, ':in_progress': 'in_progress' },
      }),
    );
    return { state: 'claimed', token };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  const standing = await readIngestEvent(merchantId, dedupeKey);
  return standing ?? claimIngestEvent(merchantId, dedupeKey, eventId, now);
}

/** The stand of a dedupe key, or undefined when no delivery holds or has done it. */
export async function readIngestEvent(merchantId: string, dedupeKey: string): Promise<Exclude<IngestClaim, { state: 'claimed' }> | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: ingestKeys.event(merchantId, hashOf(dedupeKey)), ConsistentRead: true }),
  );
  if (Item === undefined) return undefined;
  if (Item.state === 'done') return { state: 'done', result: Item.result as IngestResult };
  return Number(Item.lease_until) < clockSeconds() ? undefined : { state: 'in_progress' };
}

/**
 * Stores the result of the claimant's processing, and tags the record for the customer it
 * concerned (so erasure removes it). A claimant whose lease was taken over stores nothing.
 */
export async function completeIngestEvent(
  merchantId: string,
  dedupeKey: string,
  token: string,
  result: IngestResult,
  customerId: string | undefined,
): Promise<void> {
  const hash = hashOf(dedupeKey);
  const tag = customerId === undefined ? undefined : ingestKeys.customerTag(merchantId, customerId, hash);
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: ingestKeys.event(merchantId, hash),
        UpdateExpression: `SET #state = :done, #result = :result${tag === undefined ? '' : ', GSI2PK = :gsi2pk, GSI2SK = :gsi2sk'} REMOVE lease_until`,
        ConditionExpression: '#token = :token',
        ExpressionAttributeNames: { '#state': 'state', '#result': 'result', '#token': 'token' },
        ExpressionAttributeValues: {
          ':done': 'done',
          ':result': result,
          ':token': token,
          ...(tag === undefined ? {} : { ':gsi2pk': tag.GSI2PK, ':gsi2sk': tag.GSI2SK }),
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** Gives up a claim whose processing failed, so that a redelivery processes the event again. */
export async function releaseIngestEvent(merchantId: string, dedupeKey: string, token: string): Promise<void> {
  try {
    await documentClient.send(
      new DeleteCommand({
        TableName: env.TABLE_NAME,
        Key: ingestKeys.event(merchantId, hashOf(dedupeKey)),
        ConditionExpression: '#state = :in_progress AND #token = :token',
        ExpressionAttributeNames: { '#state': 'state', '#token': 'token' },
        ExpressionAttributeValues: { ':in_progress': 'in_progress', ':token': token },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
