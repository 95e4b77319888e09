import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { ValidationError } from './errors';

/**
 * Email sending domains (issue 16; docs/email-domains.md): the rules with no AWS in them. A
 * merchant sends campaign email from a `managed` subdomain of the service's sending domain (ready
 * at once: SES verifies a domain's subdomains with it) or from a `custom` domain of its own,
 * verified through SES Easy DKIM (three CNAMEs) with a custom MAIL FROM (MX and SPF).
 */

export type EmailDomainKind = 'managed' | 'custom';
/** Our state of a domain: `pending` until DKIM verifies, `verified` (sending from it), `failed` (DKIM not verified within 72 h, or SES said FAILED). */
export type EmailDomainStatus = 'pending' | 'verified' | 'failed';
/** SES's DKIM statuses, in its words (API_DkimAttributes). */
export const DKIM_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'TEMPORARY_FAILURE', 'NOT_STARTED'] as const;
export type DkimStatus = (typeof DKIM_STATUSES)[number];
/** SES's MAIL FROM statuses (API_MailFromAttributes). */
export const MAIL_FROM_STATUSES = ['PENDING', 'SUCCESS', 'FAILED', 'TEMPORARY_FAILURE'] as const;
export type MailFromStatus = (typeof MAIL_FROM_STATUSES)[number];

/** SES stops looking for the DKIM records 72 hours after the identity is created; we give up at the same time. */
export const PENDING_GIVE_UP_HOURS = 72;
export const MAX_DOMAIN_LENGTH = 253;
/** The MAIL FROM subdomain of a custom domain. */
export const MAIL_FROM_LABEL = 'bounce';

/**
 * The warm-up schedule of a newly verified custom domain: the daily send cap on its first,
 * second, … day of sending (UTC days counted from verification); uncapped from the day after the
 * last. Mail over the day's cap waits for the next UTC day; it is never dropped.
 */
export const WARM_UP_SCHEDULE: readonly number[] = [50, 100, 500, 1_000, 5_000, 10_000, 20_000, 50_000];

const DAY_MS = 86_400_000;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The next UTC midnight after `at`: when mail held by a day's cap may go. */
export const nextUtcMidnight = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS + 1) * DAY_MS);

/** The warm-up day (0 = the day of verification) and that day's cap (null: uncapped). */
export function warmUpAt(verifiedAt: string, now: Date): { day: number; dailyCap: number | null } {
  const day = Math.max(0, Math.floor(now.getTime() / DAY_MS) - Math.floor(Date.parse(verifiedAt) / DAY_MS));
  return { day, dailyCap: WARM_UP_SCHEDULE[day] ?? null };
}

/**
 * A domain the merchant asks to send from, normalised (lower case, punycode, no trailing dot), or 422
 * `param: domain`: an IP address, a wildcard, the service's own sending domain (or one of its
 * subdomains), a name over 253 characters, a single label, or a label that is not LDH (letters,
 * digits, inner hyphens, 1-63 characters).
 */
export function normaliseCustomDomain(raw: string, serviceDomain: string): string {
  const refuse = (why: string): never => {
    throw new ValidationError(`domain ${why}`, { param: 'domain' });
  };
  const trimmed = raw.trim().toLowerCase().replace(/\.$/, '');
  if (trimmed.length > MAX_DOMAIN_LENGTH * 4) refuse(`must be at most ${MAX_DOMAIN_LENGTH} characters`);
  // An internationalised name is kept in its ASCII (punycode) form, the one DNS and SES use.
  const domain = /^[\x21-\x7e]*$/.test(trimmed) ? trimmed : domainToASCII(trimmed) || refuse('is not a valid internationalised domain name');
  if (domain === '') refuse('must not be empty');
  if (domain.length > MAX_DOMAIN_LENGTH) refuse(`must be at most ${MAX_DOMAIN_LENGTH} characters`);
  if (isIP(domain.replace(/^\[|\]$/g, '')) !== 0) refuse('must be a domain name, not an IP address');
  if (domain.includes('*')) refuse('must not be a wildcard');
  const labels = domain.split('.');
  if (labels.length < 2) refuse('must have at least two labels (example.com)');
  for (const label of labels)
    if (!LABEL.test(label)) refuse(`has an invalid label "${label.slice(0, 63)}": letters, digits and inner hyphens, 1 to 63 characters`);
  if (/^\d+$/.test(labels.at(-1) as string)) refuse('must end in a top-level domain, not a number');
  const service = serviceDomain.toLowerCase();
  if (domain === service || domain.endsWith(`.${service}`)) refuse(`must not be the service's own sending domain ${service}: use auto-provision`);
  return domain;
}

/** The managed subdomain label of a merchant: its name as LDH (at most 40 characters), then 6 characters of its id's hash, so two merchants of one name differ. */
export function managedLabel(merchantName: string, merchantId: string): string {
  const name = merchantName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  const suffix = createHash('sha256').update(merchantId).digest('hex').slice(0, 6);
  return `${name === '' ? 'm' : name}-${suffix}`;
}

export type DnsRecordPurpose = 'dkim' | 'mail_from_mx' | 'mail_from_spf' | 'dmarc';

/** A DNS record the merchant creates at its DNS provider. */
export interface ExpectedDnsRecord {
  readonly purpose: DnsRecordPurpose;
  readonly type: 'CNAME' | 'MX' | 'TXT';
  readonly name: string;
  readonly value: string;
  /** MX only. */
  readonly priority: number | null;
  /** Whether verification waits for it: DKIM does; MAIL FROM and DMARC are advised, not required. */
  readonly required: boolean;
}

export const SPF_VALUE = 'v=spf1 include:amazonses.com ~all';

/** The records of a custom domain: 3 DKIM CNAMEs, the MAIL FROM MX and SPF, and a DMARC suggestion (reports to `dmarcReportTo` when given). */
export function expectedRecords(domain: string, dkimTokens: readonly string[], region: string, dmarcReportTo: string | undefined): ExpectedDnsRecord[] {
  const mailFrom = `${MAIL_FROM_LABEL}.${domain}`;
  return [
    ...dkimTokens.map(
      (token): ExpectedDnsRecord => ({
        purpose: 'dkim',
        type: 'CNAME',
        name: `${token}._domainkey.${domain}`,
        value: `${token}.dkim.amazonses.com`,
        priority: null,
        required: true,
      }),
    ),
    { purpose: 'mail_from_mx', type: 'MX', name: mailFrom, value: `feedback-smtp.${region}.amazonses.com`, priority: 10, required: false },
    { purpose: 'mail_from_spf', type: 'TXT', name: mailFrom, value: SPF_VALUE, priority: null, required: false },
    {
      purpose: 'dmarc',
      type: 'TXT',
      name: `_dmarc.${domain}`,
      value: `v=DMARC1; p=none;${dmarcReportTo === undefined ? '' : ` rua=mailto:${dmarcReportTo};`}`,
      priority: null,
      required: false,
    },
  ];
}

/** What DNS answers for a record's name and type now. */
export interface FoundRecords {
  readonly cname: readonly string[];
  readonly txt: readonly string[];
  readonly mx: readonly { readonly priority: number; readonly exchange: string }[];
}

/** `lookup_failed`: the DNS query itself failed (timeout, SERVFAIL), so nothing is known of the record. */
export type RecordCheck = 'found' | 'missing' | 'mismatch' | 'lookup_failed';

/** One record checked: `found` (as expected), `missing` (no record of the type) or `mismatch` (another value), with what was found. */
export function checkRecord(expected: ExpectedDnsRecord, found: FoundRecords): { status: RecordCheck; found: string[] } {
  switch (expected.type) {
    case 'CNAME': {
      const values = [...found.cname];
      return { status: values.length === 0 ? 'missing' : values.includes(expected.value) ? 'found' : 'mismatch', found: values };
    }
    case 'MX': {
      const values = found.mx.map((mx) => `${mx.priority} ${mx.exchange}`);
      return { status: values.length === 0 ? 'missing' : found.mx.some((mx) => mx.exchange === expected.value) ? 'found' : 'mismatch', found: values };
    }
    case 'TXT': {
      const marker = expected.purpose === 'dmarc' ? /^v=DMARC1\b/i : /^v=spf1\b/i;
      const values = found.txt.filter((txt) => marker.test(txt));
      const good = expected.purpose === 'dmarc' ? values.length === 1 : values.length === 1 && /\binclude:amazonses\.com\b/i.test(values[0] as string);
      return { status: values.length === 0 ? 'missing' : good ? 'found' : 'mismatch', found: values };
    }
  }
}

/**
 * The domain's state after a check: verified when SES says DKIM SUCCESS; failed when SES says
 * FAILED, or when it is still not verified PENDING_GIVE_UP_HOURS after setup; else pending.
 */
export function nextStatus(dkim: DkimStatus, createdAt: string, now: Date): EmailDomainStatus {
  if (dkim === 'SUCCESS') return 'verified';
  if (dkim === 'FAILED') return 'failed';
  return now.getTime() - Date.parse(createdAt) >= PENDING_GIVE_UP_HOURS * 3_600_000 ? 'failed' : 'pending';
}

/** The sender address on a domain: the local part of the service's default sender (EMAIL_FROM) at the domain. */
export const senderAddressOn = (domain: string, defaultFrom: string): string => `${defaultFrom.slice(0, defaultFrom.lastIndexOf('@')) || 'no-reply'}@${domain}`;
