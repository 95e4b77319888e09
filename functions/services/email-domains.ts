import { configuredDnsRecordResolver } from '#adapters/dns/records';
import { emailIdentities, type EmailIdentityState } from '#adapters/email-identity/index';
import {
  checkRecord,
  type DkimStatus,
  type EmailDomainStatus,
  type ExpectedDnsRecord,
  expectedRecords,
  MAIL_FROM_LABEL,
  managedLabel,
  normaliseCustomDomain,
  PENDING_GIVE_UP_HOURS,
  type RecordCheck,
  nextStatus,
  WARM_UP_SCHEDULE,
  warmUpAt,
} from '#core/email-domains';
import { ResourceNotFoundError, StateConflictError } from '#core/errors';
import { timeOrderedId } from '#core/ids';
import {
  claimReleaseItem,
  createEmailDomain,
  deleteEmailDomain,
  emailDomainClaimHolder,
  type EmailDomainRecord,
  getEmailDomain,
  getEmailDomainOfKind,
  listEmailDomains,
  pendingEmailDomains,
  saveEmailDomain,
  warmingEmailDomains,
} from '#data/email-domain-repository';
import { emailDomainIdFor } from '#data/entities/email-domain';
import { getMerchant } from '#data/merchant-repository';
import { outboundEventItem } from '#data/outbound-event-repository';
import type { TransactItem } from '#data/customer-repository';
import { env } from '#shared/env';
import { logger } from '#shared/logger';

/**
 * Email sending domains' use cases (docs/email-domains.md): auto-provision a managed subdomain,
 * set up a custom domain (SES identity, the DNS records to create), check it (DNS now and SES's
 * statuses), delete it, and the two daily tasks (re-check pending domains; step the warm-up cap).
 */

/** The service's sending domain (SENDING_DOMAIN, read at call time). */
export const sendingDomain = (): string => (process.env.SENDING_DOMAIN ?? env.SENDING_DOMAIN).toLowerCase();
const region = (): string => process.env.AWS_REGION ?? env.AWS_REGION;
const dmarcReportTo = (): string | undefined => process.env.DMARC_REPORT_ADDRESS ?? env.DMARC_REPORT_ADDRESS;

/** One expected record with what DNS answered for it now. */
export interface CheckedRecord extends ExpectedDnsRecord {
  readonly status: RecordCheck;
  readonly found: readonly string[];
}

/** A domain with what a check saw: its records (custom domains) and SES's identity state. */
export interface DomainDiagnostics {
  readonly domain: EmailDomainRecord;
  readonly records: readonly CheckedRecord[];
}

function newRecord(merchantId: string, domain: string, kind: EmailDomainRecord['kind'], now: Date, fields: Partial<EmailDomainRecord>): EmailDomainRecord {
  const at = now.toISOString();
  return {
    id: emailDomainIdFor(timeOrderedId(now)),
    merchant_id: merchantId,
    domain,
    kind,
    status: 'pending',
    dkim_tokens: [],
    mail_from_domain: null,
    dkim_status: 'NOT_STARTED',
    mail_from_status: null,
    verified_at: null,
    failed_at: null,
    failure_reason: null,
    last_checked_at: null,
    daily_cap: null,
    warm_up_day: null,
    created_at: at,
    updated_at: at,
    version: 1,
    ...fields,
  };
}

/**
 * POST /api/email-domain/auto-provision: the merchant's managed subdomain of SENDING_DOMAIN,
 * verified at once (the service's SES domain identity covers its subdomains, DKIM included) and
 * not warmed up (it sends on the service domain's reputation). Idempotent: a merchant that has one
 * gets it back (`created: false`).
 */
export async function autoProvisionDomain(merchantId: string, now = new Date()): Promise<{ domain: EmailDomainRecord; created: boolean }> {
  const existing = await getEmailDomainOfKind(merchantId, 'managed');
  if (existing !== undefined) return { domain: existing, created: false };
  const merchant = await getMerchant(merchantId);
  const name = `${managedLabel(merchant?.name ?? '', merchantId)}.${sendingDomain()}`;
  const record = newRecord(merchantId, name, 'managed', now, {
    status: 'verified',
    dkim_status: 'SUCCESS',
    verified_at: now.toISOString(),
    last_checked_at: now.toISOString(),
  });
  const outcome = await createEmailDomain(record);
  if (outcome === 'created') return { domain: record, created: true };
  // A concurrent auto-provision of the same merchant stored it first.
  const raced = await getEmailDomainOfKind(merchantId, 'managed');
  if (outcome === 'slot_taken' && raced !== undefined) return { domain: raced, created: false };
  throw new StateConflictError(`The sending domain ${name} is taken; retry`);
}

/**
 * POST /api/email-domain/custom-setup: validates the domain (422 `param: domain`), refuses one
 * another merchant holds (409), creates the SES identity (Easy DKIM RSA 2048, MAIL FROM
 * `bounce.<domain>`) and stores the domain `pending` with its claim. The same domain again answers
 * what was set up (`created: false`); another while the merchant has a custom domain is 409.
 */
export async function setUpCustomDomain(merchantId: string, raw: string, now = new Date()): Promise<{ diagnostics: DomainDiagnostics; created: boolean }> {
  const name = normaliseCustomDomain(raw, sendingDomain());
  const existing = await getEmailDomainOfKind(merchantId, 'custom');
  if (existing !== undefined) {
    if (existing.domain === name) return { diagnostics: { domain: existing, records: await checkRecords(existing) }, created: false };
    throw new StateConflictError(`This merchant already has the custom sending domain ${existing.domain} (${existing.id}); delete it first`, {
      param: 'domain',
    });
  }
  const holder = await emailDomainClaimHolder(name);
  if (holder !== undefined) throw new StateConflictError(`The domain ${name} is already claimed by another account`, { param: 'domain' });
  const identities = await emailIdentities();
  const mailFrom = `${MAIL_FROM_LABEL}.${name}`;
  const { dkimTokens } = await identities.create(name, mailFrom);
  const record = newRecord(merchantId, name, 'custom', now, {
    dkim_tokens: dkimTokens,
    mail_from_domain: mailFrom,
    dkim_status: 'PENDING',
    mail_from_status: 'PENDING',
  });
  const outcome = await createEmailDomain(record);
  if (outcome === 'claimed') throw new StateConflictError(`The domain ${name} is already claimed by another account`, { param: 'domain' });
  if (outcome === 'slot_taken') {
    const raced = await getEmailDomainOfKind(merchantId, 'custom');
    if (raced?.domain !== name) await identities.remove(name);
    if (raced?.domain === name) return { diagnostics: { domain: raced, records: await checkRecords(raced) }, created: false };
    throw new StateConflictError('This merchant set up another custom sending domain meanwhile; delete it first', { param: 'domain' });
  }
  return { diagnostics: { domain: record, records: await checkRecords(record) }, created: true };
}

/** The records a domain needs, each with what DNS answers now (a managed domain needs none). */
async function checkRecords(domain: EmailDomainRecord): Promise<CheckedRecord[]> {
  if (domain.kind === 'managed') return [];
  const resolver = configuredDnsRecordResolver();
  const expected = expectedRecords(domain.domain, domain.dkim_tokens, region(), dmarcReportTo());
  return Promise.all(
    expected.map(async (record): Promise<CheckedRecord> => {
      try {
        const found =
          record.type === 'CNAME'
            ? { cname: await resolver.cname(record.name), txt: [], mx: [] }
            : record.type === 'MX'
              ? { cname: [], txt: [], mx: await resolver.mx(record.name) }
              : { cname: [], txt: await resolver.txt(record.name), mx: [] };
        return { ...record, ...checkRecord(record, found) };
      } catch (error) {
        logger.warn('email domain DNS lookup failed', { name: record.name, type: record.type, error: (error as Error).message });
        return { ...record, status: 'lookup_failed', found: [] };
      }
    }),
  );
}

/** The domain as a check of SES's identity makes it (a managed domain is verified from the start). */
function applyIdentity(domain: EmailDomainRecord, identity: EmailIdentityState | undefined, now: Date): EmailDomainRecord {
  if (domain.kind === 'managed') return domain;
  const dkim: DkimStatus = identity?.dkimStatus ?? 'NOT_STARTED';
  let status: EmailDomainStatus;
  // Failed is final: its claim is released, so the name may be another account's by now.
  if (domain.status === 'failed') status = 'failed';
  else if (domain.status === 'verified') status = dkim === 'FAILED' ? 'failed' : 'verified';
  else status = nextStatus(dkim, domain.created_at, now);
  const at = now.toISOString();
  const becameVerified = status === 'verified' && domain.status !== 'verified';
  const becameFailed = status === 'failed' && domain.status !== 'failed';
  return {
    ...domain,
    status,
    dkim_status: dkim,
    mail_from_status: identity?.mailFromStatus ?? domain.mail_from_status,
    last_checked_at: at,
    updated_at: at,
    ...(becameVerified ? { verified_at: at, failed_at: null, failure_reason: null, daily_cap: WARM_UP_SCHEDULE[0] ?? null, warm_up_day: 0 } : {}),
    ...(becameFailed
      ? {
          failed_at: at,
          failure_reason:
            dkim === 'FAILED'
              ? 'SES could not verify the DKIM records'
              : `The DKIM records were not found within ${PENDING_GIVE_UP_HOURS} hours of setup; correct them, then delete the domain and set it up again`,
        }
      : {}),
  };
}

/** The outbox item of a domain's move to verified or failed (`email_domain.verified`, `email_domain.failed`); none for other changes. */
function statusEvent(before: EmailDomainRecord, after: EmailDomainRecord, now: Date): TransactItem[] {
  if (before.status === after.status || after.status === 'pending') return [];
  const object = {
    email_domain_id: after.id,
    domain: after.domain,
    status: after.status,
    previous_status: before.status,
    dkim_status: after.dkim_status,
    mail_from_status: after.mail_from_status,
    failure_reason: after.failure_reason,
    changed_at: now.toISOString(),
  };
  return [
    after.status === 'verified'
      ? outboundEventItem(after.merchant_id, null, ['email_domain.verified'], object, now)
      : outboundEventItem(after.merchant_id, null, ['email_domain.failed'], object, now),
  ];
}

/** SES's identity state of a custom domain (undefined for a managed one, or when SES has none). */
async function identityOf(domain: EmailDomainRecord): Promise<EmailIdentityState | undefined> {
  if (domain.kind === 'managed') return undefined;
  return (await emailIdentities()).get(domain.domain);
}

/** Checks a domain now (DNS and SES) and stores what changed; the stored domain and the records. */
async function recheck(domain: EmailDomainRecord, now: Date): Promise<DomainDiagnostics> {
  const [records, identity] = await Promise.all([checkRecords(domain), identityOf(domain)]);
  const after = applyIdentity(domain, identity, now);
  // A domain that fails gives up its name in the same transaction: a claim nobody can verify never blocks the owner.
  const release = after.status === 'failed' && domain.status !== 'failed' ? [claimReleaseItem(after)] : [];
  if (after !== domain) await saveEmailDomain(domain, after, [...statusEvent(domain, after, now), ...release]);
  return { domain: after === domain ? domain : { ...after, version: domain.version + 1 }, records };
}

/** Which domain a verify names: by id, by name, or (neither) the merchant's custom domain; 404 when none. */
async function domainNamed(merchantId: string, target: { readonly id?: string | undefined; readonly domain?: string | undefined }): Promise<EmailDomainRecord> {
  if (target.id !== undefined) return getEmailDomain(merchantId, target.id);
  if (target.domain !== undefined) {
    const name = target.domain.trim().toLowerCase().replace(/\.$/, '');
    const found = (await listEmailDomains(merchantId)).find((domain) => domain.domain === name);
    if (found === undefined) throw new ResourceNotFoundError(`No email domain ${name}`, { param: 'domain' });
    return found;
  }
  const custom = await getEmailDomainOfKind(merchantId, 'custom');
  if (custom === undefined) throw new ResourceNotFoundError('This merchant has no custom email domain to verify; set one up first', { param: 'id' });
  return custom;
}

/** POST /api/email-domain/verify: checks DNS and SES now and stores the outcome. */
export async function verifyDomain(
  merchantId: string,
  target: { readonly id?: string | undefined; readonly domain?: string | undefined },
  now = new Date(),
): Promise<DomainDiagnostics> {
  return recheck(await domainNamed(merchantId, target), now);
}

/**
 * GET /api/email-domain/status/{id}: the domain as stored (its `status` changes only at a verify
 * call or the daily check), with DNS and SES's DKIM and MAIL FROM statuses as they are now; stores nothing.
 */
export async function domainStatus(merchantId: string, id: string): Promise<DomainDiagnostics> {
  const domain = await getEmailDomain(merchantId, id);
  const [records, identity] = await Promise.all([checkRecords(domain), identityOf(domain)]);
  if (domain.kind === 'managed') return { domain, records };
  return {
    domain: { ...domain, dkim_status: identity?.dkimStatus ?? 'NOT_STARTED', mail_from_status: identity?.mailFromStatus ?? domain.mail_from_status },
    records,
  };
}

/** DELETE /api/email-domain/{id}: deletes the SES identity of a custom domain (while the merchant holds its name), then the domain, its slot and its claim. */
export async function removeDomain(merchantId: string, id: string): Promise<void> {
  const domain = await getEmailDomain(merchantId, id);
  // A failed domain's name may be another account's by now: its claim and SES identity are then theirs.
  const holdsName = (await emailDomainClaimHolder(domain.domain)) === merchantId;
  if (domain.kind === 'custom' && holdsName) await (await emailIdentities()).remove(domain.domain);
  await deleteEmailDomain(domain, holdsName);
}

/**
 * The daily task `pending-domain-provisioning`: every pending domain (the pending index) checked
 * again; verified ones start their warm-up, ones still pending 72 h after setup fail. A rerun the
 * same day checks again and changes only what changed meanwhile.
 */
export async function recheckPendingDomains(now: Date): Promise<{ checked: number; verified: number; failed: number; conflicts: number; errors: number }> {
  const summary = { checked: 0, verified: 0, failed: 0, conflicts: 0, errors: 0 };
  for (const listed of await pendingEmailDomains()) {
    try {
      const { domain } = await recheck(await getEmailDomain(listed.merchant_id, listed.id), now);
      summary.checked += 1;
      if (domain.status === 'verified') summary.verified += 1;
      if (domain.status === 'failed') summary.failed += 1;
    } catch (error) {
      // Changed or deleted meanwhile; or SES or DNS failed for this one (the next run checks it again): the others are still checked.
      if (error instanceof StateConflictError || error instanceof ResourceNotFoundError) summary.conflicts += 1;
      else {
        summary.errors += 1;
        logger.warn('pending email domain not checked', { email_domain_id: listed.id, error: (error as Error).name, message: (error as Error).message });
      }
    }
  }
  return summary;
}

/**
 * The daily task `domain-warm-up`: every verified domain under a cap gets the cap of its warm-up
 * day (WARM_UP_SCHEDULE, days counted in UTC from verification); past the schedule it is uncapped
 * and leaves the warming index. A domain already at today's step is left as it is, so the task is
 * idempotent per day.
 */
export async function stepDomainWarmUp(now: Date): Promise<{ stepped: number; uncapped: number; unchanged: number; conflicts: number }> {
  const summary = { stepped: 0, uncapped: 0, unchanged: 0, conflicts: 0 };
  for (const listed of await warmingEmailDomains()) {
    try {
      const domain = await getEmailDomain(listed.merchant_id, listed.id);
      if (domain.status !== 'verified' || domain.verified_at === null || domain.daily_cap === null) continue;
      const { day, dailyCap } = warmUpAt(domain.verified_at, now);
      if (domain.warm_up_day === day) {
        summary.unchanged += 1;
        continue;
      }
      await saveEmailDomain(domain, { ...domain, daily_cap: dailyCap, warm_up_day: dailyCap === null ? null : day, updated_at: now.toISOString() });
      if (dailyCap === null) summary.uncapped += 1;
      else summary.stepped += 1;
    } catch (error) {
      if (!(error instanceof StateConflictError || error instanceof ResourceNotFoundError)) throw error;
      summary.conflicts += 1;
    }
  }
  return summary;
}
