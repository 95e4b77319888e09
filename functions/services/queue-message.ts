import { queueSender } from '#adapters/queue-sender';
import type { MessageRecord } from '#core/messages';
import { sendMessageOf } from '#contracts/notifications';
import { createMessage, failUnqueuedMessage, type NewMessage } from '#data/message-repository';

/**
 * Records a message of any channel and queues it for the notifications consumer: `queued` and put
 * on `notifications` now, or `scheduled` (`scheduledAt`) for the every-minute job's
 * `flush-notifications` to release when due. The campaign engine queues its email, SMS and
 * WhatsApp steps through this. If the enqueue fails, the message is marked `failed` (nothing was
 * sent) and the error is thrown, for the caller to retry the step.
 */
export async function queueMessage(input: NewMessage, now: Date = new Date()): Promise<MessageRecord> {
  const message = await createMessage(input, now);
  if (message.status !== 'queued') return message;
  try {
    await queueSender.send('notifications', sendMessageOf(message.merchant_id, message.id));
  } catch (error) {
    await failUnqueuedMessage(message, 'Could not be queued for sending', new Date()).catch(() => undefined);
    throw error;
  }
  return message;
}
