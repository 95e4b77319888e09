import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';
import type { ItemKey } from './keys';

/** BatchGetItem's largest request. */
const KEYS_PER_CALL = 100;
/** Calls per chunk before unprocessed keys are an error (DynamoDB asks callers to back off and ask again). */
const MAX_BATCH_ATTEMPTS = 8;

type Item = Record<string, unknown>;

/**
 * The stored items of these keys: BatchGetItem, 100 keys a call, the keys DynamoDB leaves
 * unprocessed asked again after a growing wait (40, 80, 160 ms ...), at most 8 calls a chunk, then
 * an error naming `what`. A key of no item is simply absent from the answer, which is in no
 * particular order.
 *
 * @example await batchGetItems(ids.map((id) => customerKeys.customer(m, id)), { what: `Customers of ${m}` })
 */
export async function batchGetItems(keys: readonly ItemKey[], options: { readonly what: string; readonly consistent?: boolean }): Promise<Item[]> {
  const found: Item[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_CALL) {
    let pending: Item[] = keys.slice(start, start + KEYS_PER_CALL).map((key) => ({ ...key }));
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      if (attempt > MAX_BATCH_ATTEMPTS) throw new Error(`${options.what} still unprocessed after ${MAX_BATCH_ATTEMPTS} attempts`);
      if (attempt > 1) await new Promise((done) => setTimeout(done, 2 ** attempt * 10));
      const response = await documentClient.send(
        new BatchGetCommand({ RequestItems: { [env.TABLE_NAME]: { Keys: pending, ...(options.consistent === true ? { ConsistentRead: true } : {}) } } }),
      );
      found.push(...(response.Responses?.[env.TABLE_NAME] ?? []));
      pending = (response.UnprocessedKeys?.[env.TABLE_NAME]?.Keys ?? []) as Item[];
    }
  }
  return found;
}
