import { recordDeadLetteredEvent, deadLetterReasonOf } from '#data/dead-letter-repository';
import { getWebhookLog, rawBodyOf } from '#data/webhook-log-repository';
import { logger } from '#shared/logger';
import { webhookModuleFor } from '#webhooks/registry';
import type { LastFailureRecorder } from './consume';
import { ProviderWebhookMessageSchema } from './provider-webhook';

/**
 * Records an inbound provider delivery whose message fails its last receive (it goes to the DLQ
 * next) under its merchant: provider, the provider's event ids, the stored delivery, a reason code
 * and the time (functions/data/dead-letter-repository.ts). The event ids come from the stored
 * delivery, normalised again (pure, no call out); a body that does not normalise records none. A
 * message naming no merchant is only logged: there is no one to show it to.
 */
export const recordInboundDeadLetter: LastFailureRecorder = async (message, record, error) => {
  const parsed = ProviderWebhookMessageSchema.safeParse(message);
  if (!parsed.success) {
    logger.warn('dead-lettered inbound message names no merchant; not recorded for a merchant', { message_id: record.messageId });
    return;
  }
  const { merchant_id: merchantId, psp, webhook_log_id: webhookLogId } = parsed.data;
  let eventIds: string[] = [];
  const stored = await getWebhookLog(merchantId, webhookLogId);
  if (stored !== undefined) {
    try {
      const events = webhookModuleFor(stored.psp).normalise({
        rawBody: rawBodyOf(stored),
        headers: stored.content_type === null ? {} : { 'content-type': stored.content_type },
        url: stored.url,
      });
      eventIds = [...new Set(events.map((event) => event.providerEventId))];
    } catch {
      eventIds = [];
    }
  }
  await recordDeadLetteredEvent({ merchantId, provider: psp, eventIds, webhookLogId, reason: deadLetterReasonOf(error) });
};
