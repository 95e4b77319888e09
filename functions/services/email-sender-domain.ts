import { nextUtcMidnight, senderAddressOn, warmUpAt } from '#core/email-domains';
import { dayOf } from '#core/analytics/period';
import { type EmailDomainRecord, listEmailDomains, reserveDomainSend } from '#data/email-domain-repository';
import { env } from '#shared/env';

/** Where a merchant's next campaign email goes from: its verified domain, the service's default sender, or nowhere before `until` (the domain's warm-up cap is reached today). */
export type SenderChoice =
  | { readonly kind: 'default' }
  | { readonly kind: 'domain'; readonly address: string; readonly domain: EmailDomainRecord }
  | { readonly kind: 'held'; readonly until: Date; readonly reason: string };

/** The domain a merchant sends from: its verified custom domain, else its managed one; undefined when neither is verified. */
export function sendingDomainOf(domains: readonly EmailDomainRecord[]): EmailDomainRecord | undefined {
  const verified = domains.filter((domain) => domain.status === 'verified');
  return verified.find((domain) => domain.kind === 'custom') ?? verified.find((domain) => domain.kind === 'managed');
}

/**
 * The sender of one email of the merchant at `now` (docs/email-domains.md): from its verified
 * domain (the local part of EMAIL_FROM at that domain), else from EMAIL_FROM. Each send is counted
 * on the domain's day (status: `sent_today`); a domain warming up counts it against today's cap
 * first, and at the cap the email is held until the next UTC midnight (never dropped, never sent
 * from another domain instead).
 */
export async function chooseSender(merchantId: string, now: Date): Promise<SenderChoice> {
  const domain = sendingDomainOf(await listEmailDomains(merchantId, false));
  if (domain === undefined) return { kind: 'default' };
  // Today's cap comes from the schedule itself, so a missed run of the daily warm-up task delays nothing.
  const cap = domain.daily_cap === null || domain.verified_at === null ? null : warmUpAt(domain.verified_at, now).dailyCap;
  if (!(await reserveDomainSend(domain, dayOf(now), cap, now))) {
    return {
      kind: 'held',
      until: nextUtcMidnight(now),
      reason: `Held: ${domain.domain} is warming up and sent its ${cap} emails of ${dayOf(now)}; it goes the next day`,
    };
  }
  return { kind: 'domain', address: senderAddressOn(domain.domain, process.env.EMAIL_FROM ?? env.EMAIL_FROM), domain };
}
