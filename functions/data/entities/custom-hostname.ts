import { idBody } from '#core/ids';
import type { CustomHostnameRecord } from '../custom-hostname-repository';
import { CUSTOM_HOSTNAME_ENTITY, customHostnameDueKeys, customHostnameKeys } from '../keys';
import { defineEntity } from './define-entity';

/** `chn_<body>`: the id of the custom hostname stored under that body. */
export const customHostnameIdFor = (body: string): string => `chn_${body}`;
export const customHostnameBodyOf = (id: string): string | undefined => idBody(id, 'chn');

/**
 * A merchant's custom hostname. While it is `pending` or `active` and has a next check, it carries
 * an entry of the hostname check index (keys.ts customHostnameDueKeys) at that time. A deleted
 * hostname is kept 30 days (`expires_at`, the table's TTL attribute) so its status still answers.
 */
export const customHostnameEntity = defineEntity<CustomHostnameRecord & { readonly expires_at?: number }, void, CustomHostnameRecord>({
  name: CUSTOM_HOSTNAME_ENTITY.hostname,
  key: (record) => customHostnameKeys.hostname(record.merchant_id, customHostnameBodyOf(record.id) as string),
  indexes: (record) =>
    (record.status === 'pending' || record.status === 'active') && record.next_check_at !== null
      ? customHostnameDueKeys.entry(record.merchant_id, customHostnameBodyOf(record.id) as string, record.next_check_at)
      : {},
  internal: ['expires_at'],
});

/** The claim of a hostname by one merchant: unique across merchants (its key is the hostname alone). */
export interface CustomHostnameClaim {
  readonly hostname: string;
  readonly merchant_id: string;
  readonly hostname_id: string;
}

export const customHostnameClaimEntity = defineEntity<CustomHostnameClaim>({
  name: CUSTOM_HOSTNAME_ENTITY.claim,
  key: (claim) => customHostnameKeys.claim(claim.hostname),
});
