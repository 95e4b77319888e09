import { ownershipRecordName, recordMatches } from '#core/custom-hostnames';
import type { CustomHostnameRecord } from '#data/custom-hostname-repository';

/** A hostname as every answer shows it: its states, and each DNS record expected and found. */
export function customHostnameView(record: CustomHostnameRecord) {
  const txtName = ownershipRecordName(record.hostname);
  const { cname, txt } = record.found;
  return {
    id: record.id,
    hostname: record.hostname,
    status: record.status,
    cname_target: record.cname_target,
    ownership_verification: { type: 'TXT' as const, name: txtName, value: record.ownership_token },
    dns_records: [
      {
        type: 'CNAME' as const,
        name: record.hostname,
        expected: record.cname_target,
        found: cname,
        valid: cname !== null && recordMatches('CNAME', record.cname_target, cname),
      },
      {
        type: 'TXT' as const,
        name: txtName,
        expected: record.ownership_token,
        found: txt,
        valid: txt !== null && recordMatches('TXT', record.ownership_token, txt),
      },
    ],
    certificate: {
      status: record.certificate.status,
      validation_records: record.certificate.validation_records.map((validation) => ({
        type: validation.type,
        name: validation.name,
        expected: validation.value,
        found: validation.found,
        valid: validation.found !== null && recordMatches('CNAME', validation.value, validation.found),
      })),
      issued_at: record.certificate.issued_at,
    },
    verification_errors: [...record.verification_errors],
    created_at: record.created_at,
    updated_at: record.updated_at,
    last_checked_at: record.last_checked_at,
    next_check_at: record.next_check_at,
    activated_at: record.activated_at,
    deleted_at: record.deleted_at,
  };
}
