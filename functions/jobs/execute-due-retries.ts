import { findDueRetries } from '#data/due-retries';
import { logger } from '#shared/logger';
import { type AttemptOptions, type AttemptResult, attemptRetry } from '#services/attempt-retry';
import type { JobTaskInput, JobTaskSummary } from './run-job';

/** How many payments one run attempts at once (each attempt is a few DynamoDB calls and one gateway call). */
export const RETRY_CONCURRENCY = 8;
/** Due retries one run reads; the rest wait for the next minute. */
export const MAX_RETRIES_PER_RUN = 5_000;
/**
 * No attempt starts after this much of a run has passed (the every-minute Lambda times out at
 * 55 s, lib/config/function-sizes.ts): the retries left are deferred to the next run, due still.
 */
export const RUN_BUDGET_MS = 40_000;

export interface ExecuteDueRetriesOptions extends Pick<AttemptOptions, 'leaseMs' | 'afterGatewayCall'> {
  readonly limit?: number;
  readonly concurrency?: number;
  readonly budgetMs?: number;
}

/**
 * The every-minute task `execute-due-retries`: finds the retries due at the run's scheduled time
 * through the due index (no Scan) and runs each (services/attempt-retry.ts), several at once. Each
 * payment is claimed with a conditional write, so overlapping runs attempt it once. A payment
 * whose attempt throws is counted as failed and left to the next run (its lease or schedule
 * brings it back); the others go on. Past the run's time budget no new attempt starts: the rest
 * are counted `deferred` and stay due for the next run.
 */
export async function executeDueRetries(input: JobTaskInput, options: ExecuteDueRetriesOptions = {}): Promise<JobTaskSummary> {
  const started = Date.now();
  const due = await findDueRetries(input.now, options.limit ?? MAX_RETRIES_PER_RUN);
  const counts = { due: due.length, succeeded: 0, declined: 0, gateway_error: 0, rescheduled: 0, skipped: 0, failed: 0, deferred: 0 };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < due.length) {
      if (Date.now() - started > (options.budgetMs ?? RUN_BUDGET_MS)) {
        counts.deferred = due.length - next;
        return;
      }
      const retry = due[next++];
      if (retry === undefined) return;
      let result: AttemptResult;
      try {
        result = await attemptRetry(retry.merchantId, retry.paymentId, retry.psp, {
          now: input.now,
          leaseMs: options.leaseMs,
          afterGatewayCall: options.afterGatewayCall,
        });
      } catch (error) {
        counts.failed += 1;
        logger.error('retry attempt failed', {
          merchant_id: retry.merchantId,
          payment_id: retry.paymentId,
          error_name: error instanceof Error ? error.name : 'Error',
          error: error instanceof Error ? error.message : String(error),
        });
        continue;
      }
      if (result.kind === 'attempted') counts[result.outcome] += 1;
      else counts[result.kind] += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? RETRY_CONCURRENCY, Math.max(1, due.length)) }, worker));
  return counts;
}
