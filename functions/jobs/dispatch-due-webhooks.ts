import { queueSender } from '#adapters/queue-sender';
import { WEBHOOK_DELIVER_KIND, type WebhookDeliver } from '#contracts/webhook-deliveries';
import { claimDueDelivery, findDueWebhookDeliveries, restoreDueDelivery } from '#data/webhook-endpoint-repository';
import { logger } from '#shared/logger';
import type { JobTaskInput, JobTaskSummary } from './run-job';

/** Due webhook retries one run reads; the rest wait for the next minute. */
export const MAX_DUE_WEBHOOKS_PER_RUN = 2_000;
/** Claims and enqueues in flight at once. */
const CONCURRENCY = 16;

/**
 * The every-minute task `dispatch-due-webhooks`: the webhook retries whose wait was longer than the
 * queue can delay a message (over 15 min: 30 min, 2 h, 5 h, 10 h) sit as `pending` log rows in the
 * webhook due index (keys.ts webhookDueKeys). Each one due at the run's time is claimed (its due
 * entry removed on the condition that it is still there, so overlapping runs enqueue it once) and
 * put on outbound-deliveries. An enqueue that fails puts the entry back for the next run.
 */
export async function dispatchDueWebhooks(input: JobTaskInput, options: { readonly limit?: number } = {}): Promise<JobTaskSummary> {
  const due = await findDueWebhookDeliveries(input.now, options.limit ?? MAX_DUE_WEBHOOKS_PER_RUN);
  const counts = { due: due.length, enqueued: 0, claimed_elsewhere: 0, failed: 0 };
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let entry = due[next++]; entry !== undefined; entry = due[next++]) {
      const row = await claimDueDelivery(entry.merchantId, entry.body, entry.sortKey);
      if (row === undefined) {
        counts.claimed_elsewhere += 1;
        continue;
      }
      const message: WebhookDeliver = {
        kind: WEBHOOK_DELIVER_KIND,
        merchant_id: row.merchant_id,
        event_id: row.event_id,
        target: row.target,
        target_id: row.endpoint_id,
        attempt: row.attempt,
        due_at: row.next_attempt_at ?? entry.dueAt,
        ...(row.series_start === undefined ? {} : { series_start: row.series_start }),
      };
      try {
        await queueSender.send('outbound-deliveries', message);
        counts.enqueued += 1;
      } catch (error) {
        counts.failed += 1;
        logger.error('webhook retry not enqueued', { merchant_id: row.merchant_id, delivery_id: row.id, error });
        await restoreDueDelivery(entry.merchantId, entry.body, entry.dueAt).catch((restoreError: unknown) =>
          logger.error('webhook retry due entry not restored', { merchant_id: row.merchant_id, delivery_id: row.id, error: restoreError }),
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, Math.max(1, due.length)) }, worker));
  return counts;
}
