import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';
import { counterUpdate } from './counter-update';
import { ENTITY, type ItemKey, rollupKeys } from './keys';
import { mergeIncrements } from './projections/increments';
import type { CounterContribution } from './projections/projection';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** One stream record as the consumer applies it: its event id (the applied marker) and what it adds to counter items. */
export interface StreamChange {
  /** The stream record's `eventID`, unique per change: its applied marker's key. */
  readonly eventId: string;
  /** The merchant of the changed item (its `merchant_id`); required when there are increments. */
  readonly merchantId: string | undefined;
  readonly increments: readonly CounterContribution[];
}

/** The port a chunk's transaction goes through (the document client; a test wraps it to fail on cue). */
export type TransactionSender = (input: TransactWriteCommandInput) => Promise<unknown>;

export const sendTransaction: TransactionSender = (input) => documentClient.send(new TransactWriteCommand(input));

/** DynamoDB's limit of items per TransactWriteItems. */
export const MAX_TRANSACTION_ITEMS = 100;
/** How long an applied marker is kept: longer than the stream's 24 h retention, so no redelivery outlives its marker. */
export const APPLIED_MARKER_TTL_SECONDS = 48 * 3600;
const MAX_CONFLICT_ATTEMPTS = 10;

const idOf = (key: ItemKey): string => `${key.PK}\u0000${key.SK}`;

/** How many transaction items the changes take: a marker per change with increments, an Update per distinct counter item. */
function itemCount(changes: readonly StreamChange[]): number {
  const counted = changes.filter((change) => change.increments.length > 0);
  return counted.length + new Set(counted.flatMap((change) => change.increments.map((increment) => idOf(increment.key)))).size;
}

/** Whether one change fits a transaction on its own (its marker and its counter items, at most 100). */
export const fitsOneTransaction = (change: StreamChange): boolean => itemCount([change]) <= MAX_TRANSACTION_ITEMS;

/**
 * The changes cut, in their order, into chunks that each fit one transaction (at most 100
 * items). Changes with no increments stay in place and cost nothing, so each chunk is a run of
 * consecutive records and a failed chunk's first record is where a retry starts.
 */
export function chunkChanges<T extends StreamChange>(changes: readonly T[]): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  for (const change of changes) {
    if (itemCount([change]) > MAX_TRANSACTION_ITEMS) {
      throw new Error(`Stream record ${change.eventId} touches ${itemCount([change]) - 1} counter items, more than one transaction holds`);
    }
    if (itemCount([...current, change]) > MAX_TRANSACTION_ITEMS) {
      chunks.push(current);
      current = [];
    }
    current.push(change);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

function markerPut(change: StreamChange, nowSeconds: number): TransactItems[number] {
  if (change.merchantId === undefined) throw new Error(`Stream record ${change.eventId} has increments but its item names no merchant`);
  return {
    Put: {
      TableName: env.TABLE_NAME,
      Item: {
        ...rollupKeys.applied(change.merchantId, change.eventId),
        entity: ENTITY.streamApplied,
        expires_at: nowSeconds + APPLIED_MARKER_TTL_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

const isCancellation = (error: unknown): error is Error & { CancellationReasons?: { Code?: string }[] } =>
  error instanceof Error && error.name === 'TransactionCanceledException';

/**
 * Applies one chunk in one transaction: a conditional Put of each change's applied marker, then
 * one Update per counter item with the chunk's increments summed. A record delivered again finds
 * its marker: the transaction is cancelled with ConditionalCheckFailed on that marker, and the
 * chunk is sent again without the records already applied (so each change counts once, however
 * often it comes). A TransactionConflict (another writer on a counter item) is retried with
 * backoff. Anything else is thrown: the caller reports the chunk's first record as failed.
 */
export async function applyChunk(
  chunk: readonly StreamChange[],
  options: { readonly send?: TransactionSender; readonly now?: () => number } = {},
): Promise<void> {
  const send = options.send ?? sendTransaction;
  const now = options.now ?? Date.now;
  let pending = chunk.filter((change) => change.increments.length > 0);
  for (let conflicts = 0; pending.length > 0; ) {
    const nowSeconds = Math.floor(now() / 1000);
    const markers = pending.map((change) => markerPut(change, nowSeconds));
    const updates = mergeIncrements(pending.flatMap((change) => change.increments)).map((increment) =>
      counterUpdate(increment.key, increment.counters, increment.attributes ?? {}),
    );
    try {
      await send({ TransactItems: [...markers, ...updates] });
      return;
    } catch (error) {
      if (!isCancellation(error)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const applied = new Set(pending.filter((_, index) => reasons[index]?.Code === 'ConditionalCheckFailed'));
      if (applied.size > 0) {
        pending = pending.filter((change) => !applied.has(change));
        continue;
      }
      conflicts += 1;
      if (!reasons.some((reason) => reason.Code === 'TransactionConflict') || conflicts >= MAX_CONFLICT_ATTEMPTS) throw error;
      await new Promise((done) => setTimeout(done, Math.random() * 20 * 2 ** conflicts));
    }
  }
}
