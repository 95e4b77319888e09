import type { DkimStatus, MailFromStatus } from '#core/email-domains';

/** What SES says of a domain identity (GetEmailIdentity). */
export interface EmailIdentityState {
  /** SES's DKIM status, in its words. */
  readonly dkimStatus: DkimStatus;
  /** The three Easy DKIM tokens: each is the CNAME `<token>._domainkey.<domain>` → `<token>.dkim.amazonses.com`. */
  readonly dkimTokens: readonly string[];
  /** SES's MAIL FROM status; null when no custom MAIL FROM domain is set. */
  readonly mailFromStatus: MailFromStatus | null;
}

/**
 * The SES domain identity port of email domains: create an Easy DKIM identity (RSA 2048) with a
 * custom MAIL FROM domain, read its status, delete it. `ses` on AWS (SES v2), `local` elsewhere
 * (deterministic tokens; its statuses follow what DNS answers, so tests exercise the resolver).
 */
export interface EmailIdentityPort {
  readonly name: string;
  /** Creates (or, when it exists already, takes over) the identity of `domain` with MAIL FROM `mailFromDomain`; its DKIM tokens. */
  create(domain: string, mailFromDomain: string): Promise<{ dkimTokens: string[] }>;
  /** The identity's state; undefined when SES has no such identity. */
  get(domain: string): Promise<EmailIdentityState | undefined>;
  /** Deletes the identity; nothing when it is gone already. */
  remove(domain: string): Promise<void>;
}
