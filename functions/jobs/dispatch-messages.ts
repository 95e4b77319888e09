import { queueSender } from '#adapters/queue-sender';
import { sendMessageOf } from '#contracts/notifications';
import { findDueMessages, markScheduledMessageQueued } from '#data/message-repository';
import { logger } from '#shared/logger';
import type { JobTaskInput, JobTaskSummary } from './run-job';

/** Scheduled messages one run releases; the rest wait for the next minute. */
export const MAX_MESSAGES_PER_RUN = 2_000;

/**
 * The every-minute task `flush-notifications` (formerly `dispatch-messages`): finds the scheduled
 * messages of every channel due at the run's time (asked for during quiet hours, held while the
 * merchant's sending is paused, campaign steps queued for later) through the due index (no Scan),
 * puts each on `notifications` (`send_message`), then marks it `queued` (out of the index). Enqueued first, so a run that dies
 * in between only enqueues the message again next minute, and the consumer, which claims a
 * message once, sends it once. A message whose enqueue fails stays scheduled for the next run.
 */
export async function dispatchScheduledMessages(input: JobTaskInput, limit = MAX_MESSAGES_PER_RUN): Promise<JobTaskSummary> {
  const due = await findDueMessages(input.now, limit);
  const counts = { due: due.length, dispatched: 0, failed: 0 };
  for (const message of due) {
    try {
      await queueSender.send('notifications', sendMessageOf(message.merchantId, message.messageId));
      await markScheduledMessageQueued(message.merchantId, message.messageId, input.now);
      counts.dispatched += 1;
    } catch (error) {
      counts.failed += 1;
      logger.warn('scheduled message not dispatched; retried next run', {
        merchant_id: message.merchantId,
        message_id: message.messageId,
        error_name: error instanceof Error ? error.name : 'Error',
      });
    }
  }
  return counts;
}
