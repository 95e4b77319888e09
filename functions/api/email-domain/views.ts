import { senderAddressOn, WARM_UP_SCHEDULE, warmUpAt } from '#core/email-domains';
import { dayOf } from '#core/analytics/period';
import { domainSendsOn } from '#data/email-domain-repository';
import type { DomainDiagnostics } from '#services/email-domains';
import { env } from '#shared/env';

/** A domain as every answer shows it: its records with what DNS answers now, and its warm-up today. */
export async function emailDomainView({ domain, records }: DomainDiagnostics, now = new Date()) {
  const warming = domain.status === 'verified' && domain.daily_cap !== null && domain.verified_at !== null;
  const today = warming ? warmUpAt(domain.verified_at as string, now) : undefined;
  return {
    id: domain.id,
    object: 'email_domain' as const,
    domain: domain.domain,
    kind: domain.kind,
    status: domain.status,
    from_address: senderAddressOn(domain.domain, process.env.EMAIL_FROM ?? env.EMAIL_FROM),
    dkim_status: domain.dkim_status,
    mail_from_domain: domain.mail_from_domain,
    mail_from_status: domain.mail_from_status,
    dns_records: records.map((record) => ({
      purpose: record.purpose,
      type: record.type,
      name: record.name,
      value: record.value,
      priority: record.priority,
      required: record.required,
      status: record.status,
      found: [...record.found],
    })),
    warm_up: {
      capped: today?.dailyCap !== undefined && today.dailyCap !== null,
      day: today?.dailyCap === null || today === undefined ? null : today.day,
      daily_cap: today?.dailyCap ?? null,
      sent_today: domain.status === 'verified' ? await domainSendsOn(domain, dayOf(now)) : 0,
      schedule: [...WARM_UP_SCHEDULE],
    },
    verified_at: domain.verified_at,
    failed_at: domain.failed_at,
    failure_reason: domain.failure_reason,
    last_checked_at: domain.last_checked_at,
    created_at: domain.created_at,
    updated_at: domain.updated_at,
  };
}
