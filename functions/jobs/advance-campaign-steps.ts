import { findDueEnrollments } from '#data/enrollment-repository';
import { logger } from '#shared/logger';
import { advanceEnrollment } from '#services/campaign-steps';
import type { JobTaskInput, JobTaskSummary } from './run-job';

/** How many enrollments one run advances at once (each step is a few DynamoDB calls). */
export const STEP_CONCURRENCY = 8;
/** Due steps one run reads; the rest wait for the next hour (they stay due). */
export const MAX_STEPS_PER_RUN = 20_000;
/** No step starts after this much of a run (the hourly Lambda times out at 5 minutes): the rest stay due. */
export const STEP_RUN_BUDGET_MS = 240_000;

export interface AdvanceCampaignStepsOptions {
  readonly limit?: number;
  readonly concurrency?: number;
  readonly budgetMs?: number;
}

/**
 * The hourly task `advance-campaign-steps`: finds the campaign steps due at the run's scheduled
 * time through the sharded due index (GSI4 `CAMPDUE#<shard>`, one bounded Query per shard, never
 * a Scan) and advances each enrollment (services/campaign-steps.ts), several at once. Each is
 * claimed with a conditional write, so overlapping runs execute a step once. One that throws is
 * counted `failed` and comes back when its claim's lease ends; the others go on.
 */
export async function advanceCampaignSteps(input: JobTaskInput, options: AdvanceCampaignStepsOptions = {}): Promise<JobTaskSummary> {
  const started = Date.now();
  const due = await findDueEnrollments(input.now, options.limit ?? MAX_STEPS_PER_RUN);
  const counts = { due: due.length, ran: 0, postponed: 0, ended: 0, not_claimed: 0, lost: 0, failed: 0, deferred: 0, messages_queued: 0 };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < due.length) {
      if (Date.now() - started > (options.budgetMs ?? STEP_RUN_BUDGET_MS)) {
        counts.deferred = due.length - next;
        return;
      }
      const entry = due[next++];
      if (entry === undefined) return;
      try {
        const outcome = await advanceEnrollment(entry, input.now);
        counts[outcome.kind] += 1;
        if (outcome.kind === 'ran' && outcome.messageId !== null) counts.messages_queued += 1;
      } catch (error) {
        counts.failed += 1;
        logger.error('campaign step failed', {
          merchant_id: entry.merchantId,
          enrollment: entry.body,
          error_name: error instanceof Error ? error.name : 'Error',
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? STEP_CONCURRENCY, Math.max(1, due.length)) }, worker));
  return counts;
}
