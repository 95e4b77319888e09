import { createTransport, type Transporter } from 'nodemailer';
import { InternalError } from '#core/errors';
import { messageBodyOf } from '#core/messages';
import { env } from '#shared/env';
import type { EmailSender, OutgoingEmail } from './email-sender';
import { mailOptionsOf } from './mime';
import { getOutboxEmail, outboxEmailSender } from './outbox';

const transports = new Map<string, Transporter>();

function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (transport === undefined) {
    transport = createTransport(url);
    transports.set(url, transport);
  }
  return transport;
}

/**
 * The local EmailSender of the local stack: composes a real MIME message with nodemailer
 * (multipart/alternative, text then html; `Message-ID: <msg_…@domain>`; the List-Unsubscribe
 * headers) and delivers it over SMTP to SMTP_URL, the embedded mail catcher (maildev), whose web
 * UI shows it. The outbox item stays the local record of what was sent (`admin outbox list`,
 * tests) and is the resend dedupe: a message already in the outbox returns the first result
 * without delivering again. Delivered first, recorded after: a consumer that dies in between
 * delivers again on redelivery, with the same Message-ID (a mail catcher shows both; a real
 * receiver drops the duplicate).
 */
export const smtpEmailSender: EmailSender = {
  name: 'smtp',
  async send(email: OutgoingEmail) {
    const body = messageBodyOf(email.messageId);
    if (body === undefined) throw new InternalError(`Emails are keyed by a message id, not "${email.messageId}"`);
    const url = process.env.SMTP_URL ?? env.SMTP_URL;
    if (url === undefined) throw new InternalError('EMAIL_DRIVER is smtp but SMTP_URL is not set');
    const already = await getOutboxEmail(email.merchantId, email.messageId);
    if (already !== undefined) return { provider: 'smtp', providerMessageId: already.id };
    await transportFor(url).sendMail(mailOptionsOf(email, email.fromAddress ?? process.env.EMAIL_FROM ?? env.EMAIL_FROM));
    const recorded = await outboxEmailSender.send(email);
    return { provider: 'smtp', providerMessageId: recorded.providerMessageId };
  },
};
