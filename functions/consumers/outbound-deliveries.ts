import { WEBHOOK_DELIVER_KIND, WebhookDeliverSchema } from '#contracts/webhook-deliveries';
import { deliverWebhook } from '#services/deliver-webhook';
import { logger } from '#shared/logger';
import { createQueueConsumer, type MessageProcessor } from './consume';

/**
 * `webhook.deliver`: one attempt of one outbound event to one target (services/deliver-webhook.ts).
 * The receiver's behaviour never throws (a hang, a 10 MB answer, a 500 are logged failures with
 * their retry scheduled); only our own failures do (DynamoDB, the queue), and the message is then
 * received again, whose attempt row makes a logged attempt a no-op.
 */
export const deliverWebhookMessage: MessageProcessor = async (message) => {
  const parsed = WebhookDeliverSchema.parse(message);
  const outcome = await deliverWebhook(parsed);
  logger.info('webhook delivery', {
    merchant_id: parsed.merchant_id,
    event_id: parsed.event_id,
    target: parsed.target,
    target_id: parsed.target_id,
    attempt: parsed.attempt,
    outcome: outcome.kind,
    ...(outcome.kind === 'failed' ? { status_code: outcome.delivery.status_code, next_attempt_at: outcome.delivery.next_attempt_at } : {}),
    ...(outcome.kind === 'dropped' ? { reason: outcome.reason } : {}),
  });
};

export const handler = createQueueConsumer('outbound-deliveries', { [WEBHOOK_DELIVER_KIND]: deliverWebhookMessage });
