import { env } from '#shared/env';
import type { EmailSender, OutgoingEmail } from './email-sender';
import { outboxEmailSender } from './outbox';

export type { EmailSender, OutgoingEmail, SentEmail } from './email-sender';

type Driver = 'outbox' | 'smtp' | 'ses';

// The SMTP driver runs only in the local stack (tsx, jest), never in a Lambda: its module is named
// through a variable so that esbuild leaves nodemailer's SMTP transport out of the bundles
// (DESIGN §2 bundle budget); a bundle asked to use it fails on this import, loudly.
const SMTP_MODULE = './smtp';

const drivers: Record<Driver, () => Promise<EmailSender>> = {
  outbox: async () => outboxEmailSender,
  smtp: async () => ((await import(SMTP_MODULE)) as typeof import('./smtp')).smtpEmailSender,
  ses: async () => (await import('./ses')).sesEmailSender,
};

/** EMAIL_DRIVER, read at send time (the local stack sets it before starting its mail catcher). */
function driver(): Driver {
  const name = process.env.EMAIL_DRIVER ?? env.EMAIL_DRIVER;
  return name === 'smtp' || name === 'ses' ? name : 'outbox';
}

/**
 * The EmailSender in use, picked by EMAIL_DRIVER like QUEUE_DRIVER: `ses` on AWS (CDK sets it),
 * `smtp` in the local stack (real MIME into its mail catcher), `outbox` (a table item only)
 * elsewhere, e.g. tests that read `listOutboxEmails`. Adapters are loaded on first use.
 */
export const emailSender: EmailSender = {
  get name() {
    return driver();
  },
  async send(email: OutgoingEmail) {
    return (await drivers[driver()]()).send(email);
  },
};
