import { isIP } from 'node:net';
import { ValidationError } from './errors';

/**
 * Custom hostnames (white label, issue 16): a merchant serves the hosted pages under a name of
 * its own (`pay.merchant.example`) by pointing a CNAME at the service's custom host and proving
 * ownership with a TXT record. States follow Cloudflare for SaaS (stage2-anchors §7): the
 * hostname's and its certificate's, kept apart.
 */

/** Cloudflare's hostname states: `pending` until DNS is right, `active` once it is and the certificate is issued. */
export const HOSTNAME_STATUSES = ['pending', 'active', 'blocked', 'moved', 'deleted'] as const;
export type HostnameStatus = (typeof HOSTNAME_STATUSES)[number];

/** The certificate's states (Cloudflare's, without its pending_deployment: the CDN association is part of issuance here). */
export const CERTIFICATE_STATUSES = ['pending_validation', 'pending_issuance', 'active'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/** Hostnames one merchant may hold at once (deleted ones do not count). */
export const MAX_CUSTOM_HOSTNAMES = 10;

/** The name of the ownership TXT record of a hostname. */
export const ownershipRecordName = (hostname: string): string => `_recovery-challenge.${hostname}`;

/** Total length limit of a DNS name (RFC 1035: 255 octets on the wire, 253 characters written). */
export const MAX_HOSTNAME_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

const refuse = (message: string): never => {
  throw new ValidationError(message, { param: 'hostname' });
};

/**
 * The hostname a merchant asked for, lower-cased and without a trailing dot; 422 `param: hostname`
 * for an IP address, a wildcard, a name that is not a fully qualified name of at least two
 * labels, a label over 63 characters or with characters other than a-z, 0-9 and inner hyphens
 * (internationalised names go in their `xn--` form), a name over 253 characters, an all-numeric
 * top-level label, and the service's own domain or any name under it.
 *
 * @example normaliseHostname('Pay.Merchant.example.', 'recovery.example') // 'pay.merchant.example'
 */
export function normaliseHostname(raw: string, serviceDomain: string): string {
  const hostname = raw.trim().toLowerCase().replace(/\.$/, '');
  if (hostname === '') refuse('hostname must not be empty');
  if (hostname.length > MAX_HOSTNAME_LENGTH) refuse(`hostname must be at most ${MAX_HOSTNAME_LENGTH} characters`);
  if (hostname.includes('*')) refuse('hostname must not be a wildcard: name one host');
  const unbracketed = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(unbracketed) !== 0) refuse('hostname must be a name, not an IP address');
  if (/[^\x20-\x7e]/.test(hostname)) refuse('hostname must be ASCII: give an internationalised name in its punycode (xn--) form');
  const labels = hostname.split('.');
  if (labels.length < 2) refuse('hostname must be a fully qualified name such as pay.example.com');
  for (const label of labels) {
    if (label.length > MAX_LABEL_LENGTH) refuse(`each label of hostname must be at most ${MAX_LABEL_LENGTH} characters`);
    if (!LABEL.test(label)) refuse('hostname may hold only letters, digits, inner hyphens and dots between non-empty labels');
  }
  if (/^\d+$/.test(labels[labels.length - 1] as string)) refuse('hostname must end in a top-level domain, not a number');
  const own = serviceDomain.toLowerCase();
  if (hostname === own || hostname.endsWith(`.${own}`)) refuse(`hostname must not be ${own} or a name under it: those are the service's own`);
  return hostname;
}

/** Cloudflare's published re-check schedule (backoff-schedule.mdx): min(60·1.05ⁿ s, 4 h) after the n-th check. */
export const MAX_CHECK_INTERVAL_SECONDS = 4 * 3600;
/** How long a pending hostname is re-checked before it is given up as `blocked` (timed out). */
export const CHECK_WINDOW_MS = 7 * 24 * 3600 * 1000;

/** Seconds from the `checks`-th check (0 for the first, at provision) to the next. */
export function checkIntervalSeconds(checks: number): number {
  return Math.min(Math.round(60 * 1.05 ** Math.max(0, checks)), MAX_CHECK_INTERVAL_SECONDS);
}

/**
 * When a pending hostname is checked next after its `checks`-th check at `now`, or undefined when
 * its 7-day window from `createdAt` has run out (the checker then blocks it).
 */
export function nextCheckAt(createdAt: Date, checks: number, now: Date): Date | undefined {
  const deadline = createdAt.getTime() + CHECK_WINDOW_MS;
  if (now.getTime() >= deadline) return undefined;
  return new Date(Math.min(now.getTime() + checkIntervalSeconds(checks) * 1000, deadline));
}

/** One DNS record to create, with what the last check found. */
export interface DnsRecordCheck {
  readonly type: 'CNAME' | 'TXT';
  readonly name: string;
  readonly expected: string;
  /** What DNS answered at the last check (every record of that type and name); empty when nothing, null before the first check. */
  readonly found: readonly string[] | null;
  /** Whether one of the records found is the one expected. */
  readonly valid: boolean;
}

/** Whether the expected value is among those found (CNAME targets and TXT values, case and trailing dot aside for names). */
export function recordMatches(type: 'CNAME' | 'TXT', expected: string, found: readonly string[]): boolean {
  if (type === 'TXT') return found.includes(expected);
  const norm = (name: string) => name.toLowerCase().replace(/\.$/, '');
  return found.some((value) => norm(value) === norm(expected));
}

/** What POST /api/internal/cache/invalidate purges: a merchant's branding, or a custom hostname's cache. */
export const CACHE_KINDS = ['branding', 'hostname'] as const;
export type CacheKind = (typeof CACHE_KINDS)[number];
