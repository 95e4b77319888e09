import type { EmailSender } from './email-sender';
import { outboxEmailSender } from './outbox';

export type { EmailSender, OutgoingEmail, SentEmail } from './email-sender';

/**
 * The EmailSender in use. The local outbox is the only adapter for now, everywhere: the real
 * sender (SES, with its sending domain and delivery callbacks) is a later issue, which adds the
 * adapter and the configuration that picks it here.
 */
export const emailSender: EmailSender = outboxEmailSender;
