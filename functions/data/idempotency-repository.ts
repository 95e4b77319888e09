import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { normaliseEmail } from '#core/customers';
import { env } from '#shared/env';
import { documentClient } from './client';
import { customerKeys, ENTITY, ERASURE_ENTITY, erasureKeys, type ItemKey, keys, paymentKeys } from './keys';

export interface StoredResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export type IdempotencyRecord =
  | { readonly state: 'in_progress'; readonly fingerprint: string; readonly lockedUntil: number }
  | { readonly state: 'completed'; readonly fingerprint: string; readonly response: StoredResponse };

export interface ClaimInput {
  readonly merchantId: string;
  readonly keyHash: string;
  readonly fingerprint: string;
  /** Epoch seconds. */
  readonly now: number;
  readonly lockSeconds: number;
  readonly retentionSeconds: number;
}

/**
 * Claims a key for a first execution with one conditional put: it succeeds when no record
 * exists, when the record has expired (TTL deletes lazily), or when an in-progress claim's lock
 * ran out (its Lambda died mid-flight). Otherwise returns the record that stands.
 */
export async function claimIdempotencyKey(input: ClaimInput): Promise<'claimed' | IdempotencyRecord> {
  const key = keys.idempotencyRecord(input.merchantId, input.keyHash);
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: {
          ...key,
          entity: ENTITY.idempotencyRecord,
          state: 'in_progress',
          fingerprint: input.fingerprint,
          locked_until: input.now + input.lockSeconds,
          expires_at: input.now + input.retentionSeconds,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR expires_at < :now OR (#state = :in_progress AND locked_until < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':now': input.now, ':in_progress': 'in_progress' },
      }),
    );
    return 'claimed';
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: key, ConsistentRead: true }));
  if (Item === undefined) return claimIdempotencyKey(input);
  if (Item.state === 'completed') {
    return { state: 'completed', fingerprint: Item.fingerprint as string, response: Item.response as StoredResponse };
  }
  return { state: 'in_progress', fingerprint: Item.fingerprint as string, lockedUntil: Number(Item.locked_until) };
}

/** The customers a stored response names, for erasure, and when the record expires (epoch seconds). */
export interface ResponseSubjects {
  readonly customerIds: readonly string[];
  readonly expiresAt: number;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** BatchWriteItem puts, 25 at a time, re-sending what comes back unprocessed. */
async function batchPut(items: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    let requests = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt += 1) {
      if (attempt > 0) await sleep(Math.min(1000, 20 * 2 ** attempt) * Math.random());
      const { UnprocessedItems } = await documentClient.send(new BatchWriteCommand({ RequestItems: { [env.TABLE_NAME]: requests } }));
      requests = (UnprocessedItems?.[env.TABLE_NAME] ?? []) as typeof requests;
    }
  }
}

/**
 * Stores the first completed response for replay (only the claimant's fingerprint may), filed
 * among the data of every customer it names so that erasing any of them deletes it: the record
 * carries the first customer's GSI2 tag, and each further customer gets a link item (ids only,
 * expiring with the record), written before the record completes, so no completed record names a
 * customer it is not filed under.
 */
export async function completeIdempotencyKey(
  merchantId: string,
  keyHash: string,
  fingerprint: string,
  response: StoredResponse,
  subjects?: ResponseSubjects,
): Promise<void> {
  const [first, ...others] = new Set(subjects?.customerIds ?? []);
  if (subjects !== undefined && others.length > 0) {
    await batchPut(
      others.map((customerId) => ({
        ...erasureKeys.idempotencyLink(merchantId, keyHash, customerId),
        ...erasureKeys.idempotencyLinkTag(merchantId, customerId, keyHash),
        entity: ERASURE_ENTITY.idempotencyLink,
        key_hash: keyHash,
        customer_id: customerId,
        expires_at: subjects.expiresAt,
      })),
    );
  }
  const tag = first === undefined ? undefined : erasureKeys.idempotencyTag(merchantId, first, keyHash);
  await documentClient.send(
    new UpdateCommand({
      TableName: env.TABLE_NAME,
      Key: keys.idempotencyRecord(merchantId, keyHash),
      UpdateExpression: `SET #state = :completed, #response = :response${tag === undefined ? '' : ', GSI2PK = :gsi2pk, GSI2SK = :gsi2sk'} REMOVE locked_until`,
      ConditionExpression: 'fingerprint = :fingerprint',
      ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
      ExpressionAttributeValues: {
        ':completed': 'completed',
        ':response': response,
        ':fingerprint': fingerprint,
        ...(tag === undefined ? {} : { ':gsi2pk': tag.GSI2PK, ':gsi2sk': tag.GSI2SK }),
      },
    }),
  );
}

/** Ids the service issues, as they appear in a response body: customers, payments and recoveries (one body). */
const ISSUED_ID = /\b(cust|pe|rec)_([0-9A-HJKMNP-TV-Z]{26})\b/g;
/** An email address inside JSON text (no quotes, spaces or angle brackets). */
const EMAIL = /[^\s"'<>@(),;:\\[\]]+@[^\s"'<>@(),;:\\[\]]+\.[A-Za-z]{2,}/g;
/** BatchGetItem's own limit. */
const BATCH_GET_SIZE = 100;

/**
 * The customers a response body names: the customer ids in it, the customers of the payments and
 * recoveries it names (`pe_…`/`rec_…`, read from the payment items) and of the emails in it (read
 * from the unique email references). Consistent BatchGetItem reads only, one per 100 ids: no Scan,
 * and nothing is read for a body that names none (most settings and scoring answers).
 */
export async function customersNamedIn(merchantId: string, body: string): Promise<string[]> {
  const customers = new Set<string>();
  const lookups = new Map<string, ItemKey>();
  for (const [, prefix, idBody] of body.matchAll(ISSUED_ID)) {
    if (prefix === 'cust') customers.add(`cust_${idBody}`);
    else {
      const key = paymentKeys.payment(merchantId, idBody as string);
      lookups.set(key.SK, key);
    }
  }
  for (const [email] of body.matchAll(EMAIL)) {
    const key = customerKeys.byEmail(merchantId, normaliseEmail(email));
    lookups.set(key.SK, key);
  }
  const pending = [...lookups.values()];
  for (let start = 0; start < pending.length; start += BATCH_GET_SIZE) {
    let keysToRead: Array<Record<string, unknown>> = pending.slice(start, start + BATCH_GET_SIZE).map((key) => ({ ...key }));
    for (let attempt = 0; keysToRead.length > 0; attempt += 1) {
      if (attempt > 0) await sleep(Math.min(1000, 20 * 2 ** attempt) * Math.random());
      const { Responses, UnprocessedKeys } = await documentClient.send(
        new BatchGetCommand({ RequestItems: { [env.TABLE_NAME]: { Keys: keysToRead, ConsistentRead: true, ProjectionExpression: 'customer_id' } } }),
      );
      for (const item of Responses?.[env.TABLE_NAME] ?? []) if (typeof item.customer_id === 'string') customers.add(item.customer_id);
      keysToRead = (UnprocessedKeys?.[env.TABLE_NAME]?.Keys ?? []) as typeof keysToRead;
    }
  }
  return [...customers];
}

/**
 * The key of the record a link item (ERASURE_ENTITY.idempotencyLink) names, for erasure; undefined
 * when it is already gone (expired, or erased with another customer it names).
 */
export async function linkedIdempotencyRecordKey(merchantId: string, link: { readonly key_hash?: unknown }): Promise<ItemKey | undefined> {
  if (typeof link.key_hash !== 'string' || !/^[0-9a-f]{64}$/.test(link.key_hash)) return undefined;
  const key = keys.idempotencyRecord(merchantId, link.key_hash);
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: key, ConsistentRead: true, ProjectionExpression: 'PK' }));
  return Item === undefined ? undefined : key;
}

/** Releases a claim whose execution failed with a 5xx, so that a retry may run it again. */
export async function releaseIdempotencyKey(merchantId: string, keyHash: string, fingerprint: string): Promise<void> {
  try {
    await documentClient.send(
      new DeleteCommand({
        TableName: env.TABLE_NAME,
        Key: keys.idempotencyRecord(merchantId, keyHash),
        ConditionExpression: '#state = :in_progress AND fingerprint = :fingerprint',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':in_progress': 'in_progress', ':fingerprint': fingerprint },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
