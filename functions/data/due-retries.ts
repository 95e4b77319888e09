import { paymentIdFor } from '#core/payments';
import { findDueEntries } from './due-index';
import { DUE_RETRY_SHARDS, dueRetryKeys } from './keys';

/** A retry the due index says has come (read from GSI4, eventually consistent: the claim re-reads the payment). */
export interface DueRetry {
  readonly merchantId: string;
  readonly paymentId: string;
  readonly psp: string;
  readonly dueAt: string;
}

/**
 * The retries due at `now` in every shard of the due index (keys.ts dueRetryKeys), oldest first
 * within a shard, at most `limit` in all and an even share of it from each shard (a shard with
 * more due gives the rest to the next run): one Query per shard, never a Scan.
 */
export async function findDueRetries(now: Date, limit: number): Promise<DueRetry[]> {
  const entries = await findDueEntries({ shards: DUE_RETRY_SHARDS, ...dueRetryKeys }, now, limit, ['psp']);
  return entries.map((entry) => ({
    merchantId: entry.merchantId,
    paymentId: paymentIdFor(entry.body),
    psp: entry.attributes.psp as string,
    dueAt: entry.dueAt,
  }));
}
