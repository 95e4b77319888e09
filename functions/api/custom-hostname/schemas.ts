import { DateTime, described, ResponseMeta } from '#api/envelope-schemas';
import { CERTIFICATE_STATUSES, HOSTNAME_STATUSES, MAX_CUSTOM_HOSTNAMES } from '#core/custom-hostnames';
import * as z from '#shared/zod';
import { BrandingData, MerchantParams } from '../widget/schemas';

/** GET /api/custom-hostname/branding/{merchant_id}: public, cacheable 5 minutes, in the `{ data, meta }` envelope. */
export const getCustomHostnameBrandingSchemas = {
  params: MerchantParams,
  responses: { 200: z.object({ data: BrandingData, meta: ResponseMeta }) },
} as const;

const Hostname = described(
  z.string().check(z.minLength(1), z.maxLength(2048)),
  `The hostname to serve the hosted pages under, e.g. \`pay.merchant.example\`: lower-cased; at most 253 characters and 63 per label; letters, digits, inner hyphens (internationalised names in their \`xn--\` form). Not an IP address, a wildcard, or the service’s own domain or a name under it (422 \`param: hostname\`); a hostname already provisioned, by any merchant, is 409. A merchant holds at most ${MAX_CUSTOM_HOSTNAMES} hostnames not deleted (422 past it).`,
);

const DnsRecord = z.object({
  type: z.enum(['CNAME', 'TXT']),
  name: described(z.string(), 'The name to create the record at.'),
  expected: described(z.string(), 'The value it must hold: the CNAME target, or the TXT value.'),
  found: described(
    z.nullable(z.array(z.string())),
    'What DNS answered for that name and type at the last check; null before the first check or when DNS could not be asked.',
  ),
  valid: described(z.boolean(), 'Whether the value expected was among those found.'),
});

export const CustomHostname = z.object({
  id: described(z.string(), '`chn_…`.'),
  hostname: z.string(),
  status: described(
    z.enum(HOSTNAME_STATUSES),
    '`pending` until the CNAME and the ownership TXT are right and the certificate is issued, then `active`; `moved` when an active hostname’s CNAME no longer points at the custom host; `blocked` when it was not verified within 7 days; `deleted`.',
  ),
  cname_target: described(z.string(), 'Where the hostname’s CNAME must point (the service’s custom host).'),
  ownership_verification: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
  dns_records: described(z.array(DnsRecord), 'The hostname’s CNAME and the ownership TXT: expected and found.'),
  certificate: z.object({
    status: described(z.enum(CERTIFICATE_STATUSES), '`pending_validation` → `pending_issuance` → `active`.'),
    validation_records: described(
      z.array(z.object({ type: z.literal('CNAME'), name: z.string(), expected: z.string(), found: z.nullable(z.array(z.string())), valid: z.boolean() })),
      'Records the certificate authority asks for before it issues (ACM’s DNS validation); empty when it needs none.',
    ),
    issued_at: z.nullable(DateTime),
  }),
  verification_errors: described(z.array(z.string()), 'What the last check found wrong, in words; empty once active.'),
  created_at: DateTime,
  updated_at: DateTime,
  last_checked_at: z.nullable(DateTime),
  next_check_at: described(z.nullable(DateTime), 'When the scheduled checker looks again; null when it does not (moved, blocked, deleted).'),
  activated_at: z.nullable(DateTime),
  deleted_at: z.nullable(DateTime),
});

const Answer = z.object({ data: CustomHostname, meta: ResponseMeta });
const IdParams = z.object({ id: described(z.string(), 'The custom hostname (`chn_…`).') });

export const provisionCustomHostnameSchemas = {
  body: z.object({ hostname: Hostname }),
  responses: { 201: Answer },
} as const;

export const verifyCustomHostnameSchemas = {
  body: z.object({
    id: z.optional(described(z.string().check(z.minLength(1), z.maxLength(64)), 'The custom hostname (`chn_…`); or give `hostname`.')),
    hostname: z.optional(described(z.string().check(z.minLength(1), z.maxLength(2048)), 'The hostname provisioned; or give `id`.')),
  }),
  responses: { 200: Answer },
} as const;

export const getCustomHostnameStatusSchemas = { params: IdParams, responses: { 200: Answer } } as const;

export const deleteCustomHostnameSchemas = { params: IdParams, responses: { 200: Answer } } as const;
