import { randomBytes } from 'node:crypto';
import { cdn, certificateAuthority, customHostTarget } from '#adapters/cdn/index';
import { configuredDnsRecordResolver } from '#adapters/dns/records';
import { type CertificateStatus, type HostnameStatus, nextCheckAt, normaliseHostname, ownershipRecordName, recordMatches } from '#core/custom-hostnames';
import { InvalidRequestError, ResourceNotFoundError, StateConflictError, ValidationError } from '#core/errors';
import { timeOrderedId } from '#core/ids';
import {
  type CheckedValidationRecord,
  type CustomHostnameRecord,
  createCustomHostname,
  customHostnameReleaseItems,
  findClaimedHostname,
  customHostnameWriteItem,
  getCustomHostname,
} from '#data/custom-hostname-repository';
import type { TransactItem } from '#data/customer-repository';
import { customHostnameIdFor } from '#data/entities/custom-hostname';
import { outboundEventItem } from '#data/outbound-event-repository';
import { transactOptimistically } from '#data/transact';
import { env } from '#shared/env';

/** An active hostname's CNAME is checked again this often (a change of it makes the hostname `moved`). */
export const ACTIVE_RECHECK_MS = 24 * 3600 * 1000;

/**
 * POST /api/custom-hostname/provision: a new `pending` hostname, its claim and the merchant's count
 * in one transaction (409 when claimed, 422 past the limit), first checked by the scheduled checker
 * a minute later.
 */
export async function provisionCustomHostname(merchantId: string, requested: string, now: Date): Promise<CustomHostnameRecord> {
  const hostname = normaliseHostname(requested, env.SERVICE_DOMAIN);
  const target = customHostTarget();
  if (hostname === target) throw new ValidationError(`hostname must not be ${target}: that is the name to point the CNAME at`, { param: 'hostname' });
  const at = now.toISOString();
  const record: CustomHostnameRecord = {
    id: customHostnameIdFor(timeOrderedId(now)),
    merchant_id: merchantId,
    hostname,
    status: 'pending',
    cname_target: target,
    ownership_token: randomBytes(24).toString('base64url'),
    ownership_verified_at: null,
    certificate: { status: 'pending_validation', id: null, validation_records: [], issued_at: null },
    cdn_tenant_id: null,
    found: { cname: null, txt: null },
    verification_errors: [],
    checks: 0,
    pending_since: at,
    version: 1,
    created_at: at,
    updated_at: at,
    last_checked_at: null,
    next_check_at: (nextCheckAt(now, 0, now) as Date).toISOString(),
    activated_at: null,
    deleted_at: null,
  };
  await createCustomHostname(record);
  return record;
}

/** The records of `name`, or null when DNS could not answer (a timeout, SERVFAIL): never taken for "no record". */
async function lookUp(query: Promise<string[]>): Promise<string[] | null> {
  try {
    return await query;
  } catch {
    return null;
  }
}

function dnsErrors(record: CustomHostnameRecord, cname: string[] | null, txt: string[] | null, ownershipNeeded: boolean): string[] {
  const errors: string[] = [];
  if (cname === null) errors.push(`DNS could not be asked for the CNAME of ${record.hostname}; it is checked again later`);
  else if (cname.length === 0) errors.push(`No CNAME record at ${record.hostname}: create one pointing at ${record.cname_target}`);
  else if (!recordMatches('CNAME', record.cname_target, cname))
    errors.push(`The CNAME of ${record.hostname} points at ${cname.join(', ')}, not ${record.cname_target}`);
  if (!ownershipNeeded) return errors;
  const name = ownershipRecordName(record.hostname);
  if (txt === null) errors.push(`DNS could not be asked for the TXT records of ${name}; it is checked again later`);
  else if (!recordMatches('TXT', record.ownership_token, txt)) errors.push(`No TXT record at ${name} holds the ownership token`);
  return errors;
}

interface CertificateProgress {
  readonly certificate: CustomHostnameRecord['certificate'];
  readonly tenantId: string | null;
  readonly errors: readonly string[];
}

/**
 * Moves the certificate on once DNS proves ownership: requests it (once; the port's idempotency
 * key is the hostname id), reads its state and validation records, and once issued serves the
 * hostname through the CDN with it.
 */
async function advanceCertificate(record: CustomHostnameRecord, now: Date): Promise<CertificateProgress> {
  const certificateId = record.certificate.id ?? (await (await certificateAuthority()).request(record.hostname, record.id)).certificateId;
  const described = await (await certificateAuthority()).describe(certificateId);
  const resolver = configuredDnsRecordResolver();
  const validation_records: CheckedValidationRecord[] = await Promise.all(
    described.validationRecords.map(async (validation) => ({ ...validation, found: await lookUp(resolver.cname(validation.name)) })),
  );
  const base = { id: certificateId, validation_records, issued_at: record.certificate.issued_at };
  switch (described.state) {
    case 'issued': {
      const tenantId = record.cdn_tenant_id ?? (await (await cdn()).attach(record.hostname, certificateId)).tenantId;
      return { certificate: { ...base, status: 'active', issued_at: base.issued_at ?? now.toISOString() }, tenantId, errors: [] };
    }
    case 'pending_issuance':
      return { certificate: { ...base, status: 'pending_issuance' }, tenantId: record.cdn_tenant_id, errors: [] };
    case 'pending_validation':
      return {
        certificate: { ...base, status: 'pending_validation' },
        tenantId: record.cdn_tenant_id,
        errors: validation_records
          .filter((validation) => validation.found === null || !recordMatches('CNAME', validation.value, validation.found))
          .map((validation) => `Certificate validation: create a CNAME at ${validation.name} pointing at ${validation.value}`),
      };
    default:
      // Refused or timed out at the authority: forget it, so the next check asks for a new one.
      return {
        certificate: { status: 'pending_validation', id: null, validation_records: [], issued_at: null },
        tenantId: record.cdn_tenant_id,
        errors: ['The certificate authority refused the certificate; a new one is requested at the next check'],
      };
  }
}

/** The scheduling of a hostname after a check: pending on the backoff until 7 days from `pendingSince` run out (then blocked), active once a day. */
function scheduled(
  pendingSince: string,
  status: HostnameStatus,
  checks: number,
  now: Date,
): { status: HostnameStatus; next: string | null; timedOut: boolean } {
  if (status === 'active') return { status, next: new Date(now.getTime() + ACTIVE_RECHECK_MS).toISOString(), timedOut: false };
  if (status !== 'pending') return { status, next: null, timedOut: false };
  const next = nextCheckAt(new Date(pendingSince), checks, now);
  return next === undefined ? { status: 'blocked', next: null, timedOut: true } : { status, next: next.toISOString(), timedOut: false };
}

/** One DNS check of a hostname and what follows from it (the record after; the caller writes it). */
async function checkedRecord(record: CustomHostnameRecord, now: Date): Promise<CustomHostnameRecord> {
  const resolver = configuredDnsRecordResolver();
  const ownershipNeeded = record.ownership_verified_at === null;
  const [cname, txt] = await Promise.all([lookUp(resolver.cname(record.hostname)), lookUp(resolver.txt(ownershipRecordName(record.hostname)))]);
  const cnameOk = cname !== null && recordMatches('CNAME', record.cname_target, cname);
  const ownershipOk = !ownershipNeeded || (txt !== null && recordMatches('TXT', record.ownership_token, txt));
  let status: HostnameStatus = record.status;
  let certificate = record.certificate;
  let tenantId = record.cdn_tenant_id;
  let errors = dnsErrors(record, cname, txt, ownershipNeeded);
  if (record.status === 'active') {
    if (cname !== null && !cnameOk) status = 'moved';
  } else if (cnameOk && ownershipOk) {
    const progress = await advanceCertificate(record, now);
    certificate = progress.certificate;
    tenantId = progress.tenantId;
    errors = [...errors, ...progress.errors];
    if (certificate.status === 'active') status = 'active';
    else if (record.status === 'moved' || record.status === 'blocked') status = 'pending';
  }
  // A hostname verify brings back from moved or blocked starts a new 7 days of checks.
  const revived = status === 'pending' && record.status !== 'pending';
  const checks = revived ? 1 : record.checks + 1;
  const pendingSince = revived ? now.toISOString() : record.pending_since;
  const next = scheduled(pendingSince, status, checks, now);
  if (next.timedOut) errors = [...errors, 'Not verified within 7 days: fix the DNS records, then call verify again'];
  const at = now.toISOString();
  return {
    ...record,
    status: next.status,
    certificate,
    cdn_tenant_id: tenantId,
    ownership_verified_at: record.ownership_verified_at ?? (cnameOk && ownershipOk ? at : null),
    found: { cname, txt },
    verification_errors: next.status === 'active' ? [] : errors,
    checks,
    pending_since: pendingSince,
    version: record.version + 1,
    updated_at: at,
    last_checked_at: at,
    next_check_at: next.next,
    activated_at: next.status === 'active' ? (record.activated_at ?? at) : record.activated_at,
  };
}

/** The writes of a change of hostname: the record, and its `custom_hostname.updated` event when a state changed. */
function changeItems(before: CustomHostnameRecord, after: CustomHostnameRecord, now: Date): TransactItem[] {
  const items = [customHostnameWriteItem(before, after)];
  if (before.status === after.status && before.certificate.status === after.certificate.status) return items;
  const object = {
    hostname_id: after.id,
    hostname: after.hostname,
    status: after.status,
    previous_status: before.status,
    certificate_status: after.certificate.status satisfies CertificateStatus,
    previous_certificate_status: before.certificate.status,
    verification_errors: [...after.verification_errors],
    updated_at: after.updated_at,
  };
  return [...items, outboundEventItem(after.merchant_id, null, ['custom_hostname.updated'], object, now)];
}

/**
 * POST /api/custom-hostname/verify: checks DNS now and moves the hostname on (pending → active once
 * the CNAME and TXT are right and the certificate is issued; active → moved when the CNAME no
 * longer points at the custom host). 409 for a deleted hostname.
 */
export async function verifyCustomHostname(merchantId: string, id: string, now: Date): Promise<CustomHostnameRecord> {
  return transactOptimistically(async () => {
    const record = await getCustomHostname(merchantId, id);
    if (record.status === 'deleted') throw new StateConflictError(`${record.hostname} was deleted; provision it again`, { param: 'id' });
    const after = await checkedRecord(record, now);
    return { items: changeItems(record, after, now), result: after };
  });
}

/**
 * The scheduled checker's check of one due hostname; undefined when it is no longer due (checked
 * meanwhile, deleted, or its index entry was stale).
 */
export async function checkDueCustomHostname(merchantId: string, id: string, now: Date): Promise<CustomHostnameRecord | undefined> {
  return transactOptimistically(async () => {
    const record = await getCustomHostname(merchantId, id);
    const due = (record.status === 'pending' || record.status === 'active') && record.next_check_at !== null && record.next_check_at <= now.toISOString();
    if (!due) return { items: [], result: undefined };
    const after = await checkedRecord(record, now);
    return { items: changeItems(record, after, now), result: after };
  });
}

/**
 * DELETE /api/custom-hostname/{id}: purges what the CDN cached for it, removes its CDN association
 * and its certificate through the ports, then, in one transaction, marks it `deleted`, releases the
 * claim and lowers the merchant's count. 409 when already deleted. The port calls are idempotent, so
 * a retry after a failure finishes the job.
 */
export async function deleteCustomHostname(merchantId: string, id: string, now: Date): Promise<CustomHostnameRecord> {
  return transactOptimistically(async () => {
    const record = await getCustomHostname(merchantId, id);
    if (record.status === 'deleted') throw new StateConflictError(`${record.hostname} is already deleted`, { param: 'id' });
    if (record.cdn_tenant_id !== null) {
      const network = await cdn();
      await network.purge({ kind: 'hostname', tenantId: record.cdn_tenant_id });
      await network.detach(record.cdn_tenant_id);
    }
    if (record.certificate.id !== null) await (await certificateAuthority()).delete(record.certificate.id);
    const at = now.toISOString();
    const after: CustomHostnameRecord = {
      ...record,
      status: 'deleted',
      cdn_tenant_id: null,
      verification_errors: [],
      version: record.version + 1,
      updated_at: at,
      next_check_at: null,
      deleted_at: at,
    };
    return { items: [...changeItems(record, after, now), ...customHostnameReleaseItems(record)], result: after };
  });
}

/**
 * The id of the hostname a verify body names: `id`, or `hostname` (this merchant's claim of it);
 * both must agree when both are given. 400 when neither is; 404 when it is not this merchant's.
 */
export async function customHostnameOf(merchantId: string, body: { readonly id?: string; readonly hostname?: string }): Promise<string> {
  if (body.hostname === undefined) {
    if (body.id === undefined) throw new InvalidRequestError('Name the hostname to verify: give id or hostname', { param: 'id' });
    return body.id;
  }
  const hostname = normaliseHostname(body.hostname, env.SERVICE_DOMAIN);
  const claimed = await findClaimedHostname(hostname);
  if (claimed === undefined || claimed.merchant_id !== merchantId) throw new ResourceNotFoundError(`No custom hostname ${hostname}`, { param: 'hostname' });
  if (body.id !== undefined && body.id !== claimed.id) throw new ValidationError('id and hostname name different custom hostnames', { param: 'hostname' });
  return claimed.id;
}
