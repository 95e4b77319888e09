import { env } from '#shared/env';
import { localMessagingSender } from './local';
import type { MessagingSender, OutgoingMessage } from './messaging-sender';
import { twilioMessagingSender } from './twilio';

export { MessageRefusedError, refusalOf } from './messaging-sender';
export type { MessagingSender, OutgoingMessage, SentMessage } from './messaging-sender';

/** The MessagingSender in use: MESSAGING_DRIVER (`twilio` on AWS, `local` otherwise), read at send time. */
export const messagingSender: MessagingSender = {
  get name() {
    return (process.env.MESSAGING_DRIVER ?? env.MESSAGING_DRIVER) === 'twilio' ? 'twilio' : 'local';
  },
  send(message: OutgoingMessage) {
    return ((process.env.MESSAGING_DRIVER ?? env.MESSAGING_DRIVER) === 'twilio' ? twilioMessagingSender : localMessagingSender).send(message);
  },
};
