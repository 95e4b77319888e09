import * as z from '#shared/zod';
import { DateTime, described, ResponseMeta } from '#api/envelope-schemas';
import { DKIM_STATUSES, MAIL_FROM_STATUSES, WARM_UP_SCHEDULE } from '#core/email-domains';

const Int = z.number().check(z.int());
const Id = z.string().check(z.minLength(1), z.maxLength(255));
const DomainName = described(
  z.string().check(z.minLength(1), z.maxLength(1000)),
  "The domain to send from, e.g. `mail.example.com`: at most 253 characters of letters, digits, hyphens and dots (an internationalised name is kept in its punycode form). Not an IP address, a wildcard or the service's own sending domain (422 `param: domain`); a domain another account holds is 409.",
);

const DnsRecord = z.object({
  purpose: described(
    z.enum(['dkim', 'mail_from_mx', 'mail_from_spf', 'dmarc']),
    'What the record is for: Easy DKIM signing (3 CNAMEs), the custom MAIL FROM (MX and SPF), or a DMARC policy (suggested).',
  ),
  type: z.enum(['CNAME', 'MX', 'TXT']),
  name: z.string(),
  value: z.string(),
  priority: described(z.nullable(Int), 'The MX priority; null for other types.'),
  required: described(z.boolean(), 'Whether verification waits for this record (only the DKIM CNAMEs); the others are strongly advised.'),
  status: described(
    z.enum(['found', 'missing', 'mismatch', 'lookup_failed']),
    'What DNS answered at this check: the expected value, nothing, another value (see `found`), or no answer at all (timeout, SERVFAIL).',
  ),
  found: described(z.array(z.string()), 'The values DNS answered for this name and type (MX as `<priority> <exchange>`).'),
});

export const EmailDomain = z.object({
  id: z.string(),
  object: z.literal('email_domain'),
  domain: z.string(),
  kind: described(
    z.enum(['managed', 'custom']),
    "`managed`: a subdomain of the service's sending domain (auto-provision); `custom`: the merchant's own domain.",
  ),
  status: described(
    z.enum(['pending', 'verified', 'failed']),
    '`pending` until SES verifies DKIM; `verified`: campaign email is sent from it; `failed`: SES said FAILED, or DKIM was not verified within 72 h of setup.',
  ),
  from_address: described(z.string(), 'The address campaign email is sent from once the domain is verified.'),
  dkim_status: described(z.enum(DKIM_STATUSES), "SES's DKIM status, in its words."),
  mail_from_domain: described(z.nullable(z.string()), 'The custom MAIL FROM (bounce) domain; null for managed domains.'),
  mail_from_status: described(z.nullable(z.enum(MAIL_FROM_STATUSES)), "SES's MAIL FROM status; null for managed domains."),
  dns_records: described(z.array(DnsRecord), 'The records to create at the DNS provider, each with what DNS answers now; empty for managed domains.'),
  warm_up: z.object({
    capped: described(z.boolean(), 'Whether a daily send cap applies today.'),
    day: described(z.nullable(Int), 'The warm-up day (0 = the day of verification, UTC); null when not warming up.'),
    daily_cap: described(z.nullable(Int), "Today's send cap; null when uncapped. Mail over it waits for the next UTC day."),
    sent_today: described(Int, 'Emails sent from the domain today (UTC).'),
    schedule: described(z.array(Int), `The published cap per day from verification: ${WARM_UP_SCHEDULE.join(', ')}, then uncapped.`),
  }),
  verified_at: z.nullable(DateTime),
  failed_at: z.nullable(DateTime),
  failure_reason: z.nullable(z.string()),
  last_checked_at: z.nullable(DateTime),
  created_at: DateTime,
  updated_at: DateTime,
});

const Answer = z.object({ data: EmailDomain, meta: ResponseMeta });

export const autoProvisionEmailDomainSchemas = { responses: { 200: Answer, 201: Answer } } as const;

export const setUpCustomEmailDomainSchemas = {
  body: z.object({ domain: DomainName }),
  responses: { 200: Answer, 201: Answer },
} as const;

export const verifyEmailDomainSchemas = {
  body: z.object({
    id: z.optional(described(Id, 'The domain to check (`edom_…`).')),
    domain: z.optional(described(z.string().check(z.minLength(1), z.maxLength(1000)), 'Or the domain by name.')),
  }),
  responses: { 200: Answer },
} as const;

const DomainParams = z.object({ id: Id });

export const getEmailDomainStatusSchemas = { params: DomainParams, responses: { 200: Answer } } as const;

export const deleteEmailDomainSchemas = { params: DomainParams, responses: { 204: z.undefined() } } as const;
