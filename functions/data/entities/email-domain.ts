import { idBody } from '#core/ids';
import type { EmailDomainRecord } from '../email-domain-repository';
import { EMAIL_DOMAIN_ENTITY, emailDomainKeys } from '../keys';
import { defineEntity } from './define-entity';

/** `edom_<body>`: the id of the sending domain stored under that body. */
export const emailDomainIdFor = (body: string): string => `edom_${body}`;
export const emailDomainBodyOf = (id: string): string | undefined => idBody(id, 'edom');

/**
 * A merchant's sending domain. While `pending` it is in the pending index (the daily re-check);
 * while verified with a warm-up cap, in the warming index (the daily warm-up step).
 */
export const emailDomainEntity = defineEntity<EmailDomainRecord>({
  name: EMAIL_DOMAIN_ENTITY.domain,
  key: (domain) => emailDomainKeys.domain(domain.merchant_id, emailDomainBodyOf(domain.id) as string),
  indexes: (domain) => {
    const body = emailDomainBodyOf(domain.id) as string;
    if (domain.status === 'pending') return emailDomainKeys.pendingEntry(domain.merchant_id, body, domain.created_at);
    if (domain.status === 'verified' && domain.daily_cap !== null && domain.verified_at !== null)
      return emailDomainKeys.warmingEntry(domain.merchant_id, body, domain.verified_at);
    return {};
  },
});
