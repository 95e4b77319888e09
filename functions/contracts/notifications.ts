import * as z from '#shared/zod';

/** The kind every producer now puts on `notifications`: send one message of the communication log, whatever its channel. */
export const SEND_MESSAGE_KIND = 'send_message';
/** The kind POST /recoveries/{id}/dunning used to enqueue; still accepted, for messages queued before the change. */
export const DUNNING_EMAIL_KIND = 'dunning_email';

const ids = {
  merchant_id: z.string().check(z.minLength(1)),
  message_id: z.string().check(z.minLength(1)),
};

/** What producers (manual dunning, campaign steps, the every-minute job) enqueue on `notifications`: ids only, never the message itself. */
export const SendMessageSchema = z.object({ kind: z.literal(SEND_MESSAGE_KIND), ...ids });
export type SendMessage = z.infer<typeof SendMessageSchema>;

/** The older form of the same request (an email message). */
export const DunningEmailMessageSchema = z.object({ kind: z.literal(DUNNING_EMAIL_KIND), ...ids });
export type DunningEmailMessage = z.infer<typeof DunningEmailMessageSchema>;

/** Either form: the processor reads only the ids. */
export const NotificationMessageSchema = z.union([SendMessageSchema, DunningEmailMessageSchema]);
export type NotificationMessage = z.infer<typeof NotificationMessageSchema>;

/** The queue message that sends `messageId`. */
export const sendMessageOf = (merchantId: string, messageId: string): SendMessage => ({
  kind: SEND_MESSAGE_KIND,
  merchant_id: merchantId,
  message_id: messageId,
});
