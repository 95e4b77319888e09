import { env } from '#shared/env';
import { localEmailIdentities } from './local';
import type { EmailIdentityPort } from './port';

export type { EmailIdentityPort, EmailIdentityState } from './port';

const local = localEmailIdentities();

/** The identity port of the configuration: EMAIL_IDENTITY_DRIVER (read at call time) `ses` on AWS (CDK sets it), `local` otherwise. */
export async function emailIdentities(): Promise<EmailIdentityPort> {
  const driver = process.env.EMAIL_IDENTITY_DRIVER ?? env.EMAIL_IDENTITY_DRIVER;
  return driver === 'ses' ? (await import('./ses')).sesEmailIdentities : local;
}
