import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { StateConflictError } from '#core/errors';
import { env } from '#shared/env';
import { documentClient } from './client';
import type { ItemKey } from './keys';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

const MAX_ATTEMPTS = 12;
const MAX_BACKOFF_MS = 1000;

/**
 * Optimistic concurrency for a read-decide-write: `attempt` reads what it needs (consistently),
 * decides, and returns the writes, each guarded by a condition on what it read (a version, an
 * absent key). When another writer got there first the transaction is cancelled and `attempt`
 * runs again on fresh state, so no update is lost and a decision is never made on stale data.
 * `attempt` may throw a domain error (e.g. 409) once fresh state forbids the change.
 */
export async function transactOptimistically<T>(attempt: () => Promise<{ items: TransactItems; result: T }>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    const { items, result } = await attempt();
    if (items.length === 0) return result;
    try {
      await documentClient.send(new TransactWriteCommand({ TransactItems: items }));
      return result;
    } catch (error) {
      // A 500 (DynamoDB's InternalServerError; DynamoDB Local's lock-wait time-out under a storm) is run again too:
      // the attempt re-reads, and its conditions see whether the failed call was applied after all.
      const serverError = (error as Error).name === 'InternalServerError';
      if (!(error instanceof TransactionCanceledException) && !serverError) throw error;
      const retryable =
        serverError ||
        ((error as TransactionCanceledException).CancellationReasons ?? []).some(
          (reason) => reason.Code === 'ConditionalCheckFailed' || reason.Code === 'TransactionConflict',
        );
      if (!retryable) throw error;
      if (tries >= MAX_ATTEMPTS)
        throw serverError ? error : new StateConflictError('The resource is being changed by other requests; retry shortly.', { cause: error });
      // Exponential backoff with full jitter (capped at 1 s): a storm of writers on one item spreads out instead of colliding again.
      await new Promise((done) => setTimeout(done, Math.random() * Math.min(MAX_BACKOFF_MS, 10 * 2 ** tries)));
    }
  }
}

/** The index of the transaction item whose condition failed, when `error` is a cancelled transaction; undefined otherwise. */
export function failedConditionAt(error: unknown): number | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const index = error.CancellationReasons?.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
  return index === undefined || index < 0 ? undefined : index;
}

/**
 * The transaction item that adds one to a per-merchant count attribute, on the condition that it
 * stays at most `max` (the cap of a resource kept by the count, written with the resource).
 */
export function cappedIncrement(key: ItemKey, attribute: string, max: number): TransactItems[number] {
  return {
    Update: {
      TableName: env.TABLE_NAME,
      Key: key,
      UpdateExpression: 'ADD #count :one',
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
      ExpressionAttributeNames: { '#count': attribute },
      ExpressionAttributeValues: { ':one': 1, ':max': max },
    },
  };
}
