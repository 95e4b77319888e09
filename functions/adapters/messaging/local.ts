import { InternalError } from '#core/errors';
import { messageBodyOf } from '#core/messages';
import { putLocalMessage } from '#data/channel-repository';
import { MessageRefusedError, type MessagingSender, type OutgoingMessage, refusalOf } from './messaging-sender';

/**
 * The local MessagingSender: "sending" keeps the SMS or WhatsApp as a table item, which the
 * operator lists with `npm run --silent admin -- messages list`. It refuses what Twilio would
 * (a free-form WhatsApp), so the local stack behaves as production does. One item per message.
 */
export const localMessagingSender: MessagingSender = {
  name: 'local',
  async send(message: OutgoingMessage) {
    const body = messageBodyOf(message.messageId);
    if (body === undefined) throw new InternalError(`Messages are keyed by a message id, not "${message.messageId}"`);
    const refusal = refusalOf(message);
    if (refusal !== undefined) throw new MessageRefusedError(refusal);
    const stored = await putLocalMessage(
      {
        id: `lmsg_${body}`,
        merchant_id: message.merchantId,
        customer_id: message.customerId,
        message_id: message.messageId,
        channel: message.channel,
        to: message.to,
        body: message.text,
        content_sid: message.contentSid ?? null,
        created_at: new Date().toISOString(),
      },
      body,
    );
    return { provider: 'local', providerMessageId: stored.id };
  },
};
