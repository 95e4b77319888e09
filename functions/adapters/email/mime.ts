import type { OutgoingEmail } from './email-sender';

/** The domain of the sender address: Message-IDs are ours, so they name our domain. */
export const senderDomain = (from: string): string => from.slice(from.lastIndexOf('@') + 1).replace(/>.*$/, '') || 'recovery.local';

/** The Message-ID of a message's email, `<msg_…@domain>`: the same for every send of the message, so a resend is recognisably the same email. */
export const messageIdHeader = (messageId: string, from: string): string => `<${messageId}@${senderDomain(from)}>`;

/** The nodemailer mail options of an email: multipart/alternative (text, html) when it has HTML, with our Message-ID and headers. */
export function mailOptionsOf(email: OutgoingEmail, from: string) {
  return {
    from: email.fromName === undefined ? from : { name: email.fromName, address: from },
    to: email.to,
    subject: email.subject,
    text: email.text,
    ...(email.html === undefined ? {} : { html: email.html }),
    messageId: messageIdHeader(email.messageId, from),
    headers: { ...(email.headers ?? {}) },
  };
}
