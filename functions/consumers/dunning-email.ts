import { sendMessage } from './send-message';

/**
 * The processor of `dunning_email` queue messages (enqueued before messages of every channel
 * existed): the same processor as `send_message` (send-message.ts), which keeps every guarantee
 * this one gave (exactly-once through claims, deferral in quiet hours, suppression).
 */
export const sendDunningEmail = sendMessage;
