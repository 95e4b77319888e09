import { createHash } from 'node:crypto';
import { configuredDnsRecordResolver, type DnsRecordResolver } from '#adapters/dns/records';
import { MAIL_FROM_LABEL } from '#core/email-domains';
import type { EmailIdentityPort } from './port';

/** The local adapter's DKIM tokens of a domain: three 32-character lower-case hex strings, the same every time (SES's are random, of the same shape). */
export function localDkimTokens(domain: string): string[] {
  return [0, 1, 2].map((index) => createHash('sha256').update(`dkim:${index}:${domain}`).digest('hex').slice(0, 32));
}

/**
 * The local SES identity: keeps nothing (tokens derive from the domain) and reports what SES
 * would, from what DNS answers now through the records port (DNS_SERVERS): DKIM SUCCESS once the
 * three CNAMEs point at their `dkim.amazonses.com` targets, else PENDING; MAIL FROM SUCCESS once
 * `bounce.<domain>` has an MX to `feedback-smtp.<region>.amazonses.com`, else PENDING.
 */
export function localEmailIdentities(
  resolver: () => DnsRecordResolver = configuredDnsRecordResolver,
  region = () => process.env.AWS_REGION ?? 'us-east-1',
): EmailIdentityPort {
  return {
    name: 'local',
    create: async (domain) => ({ dkimTokens: localDkimTokens(domain) }),
    async get(domain) {
      const dns = resolver();
      const dkimTokens = localDkimTokens(domain);
      // As SES does, a DNS failure (timeout, SERVFAIL) is TEMPORARY_FAILURE, not a verdict.
      const dkimStatus = await Promise.all(dkimTokens.map((token) => dns.cname(`${token}._domainkey.${domain}`))).then(
        (cnames) => (dkimTokens.every((token, index) => cnames[index]?.includes(`${token}.dkim.amazonses.com`)) ? 'SUCCESS' : 'PENDING'),
        () => 'TEMPORARY_FAILURE' as const,
      );
      const mailFromStatus = await dns.mx(`${MAIL_FROM_LABEL}.${domain}`).then(
        (mx) => (mx.some((record) => record.exchange === `feedback-smtp.${region()}.amazonses.com`) ? 'SUCCESS' : 'PENDING'),
        () => 'TEMPORARY_FAILURE' as const,
      );
      return { dkimStatus, dkimTokens, mailFromStatus };
    },
    remove: async () => {},
  };
}
