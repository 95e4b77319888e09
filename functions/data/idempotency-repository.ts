import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '../shared/env';
import { documentClient } from './client';
import { ENTITY, keys } from './keys';

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

/** Stores the first completed response for replay (only the claimant's fingerprint may). */
export async function completeIdempotencyKey(merchantId: string, keyHash: string, fingerprint: string, response: StoredResponse): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: env.TABLE_NAME,
      Key: keys.idempotencyRecord(merchantId, keyHash),
      UpdateExpression: 'SET #state = :completed, #response = :response REMOVE locked_until',
      ConditionExpression: 'fingerprint = :fingerprint',
      ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
      ExpressionAttributeValues: { ':completed': 'completed', ':response': response, ':fingerprint': fingerprint },
    }),
  );
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
