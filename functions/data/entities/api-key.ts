import type { ApiKeyRecord } from '#core/api-keys';
import { ENTITY, keys } from '../keys';
import { defineEntity } from './define-entity';

type Item = Record<string, unknown>;

/** The record of a key item, for items written before a key could expire or be revoked. */
const apiKeyRecordOf = (attributes: Item): ApiKeyRecord =>
  ({ ...attributes, expires_at: attributes.expires_at ?? null, revoked_at: attributes.revoked_at ?? null }) as unknown as ApiKeyRecord;

/** A merchant's API key (the key itself is never stored), listed under the merchant. */
export const apiKeyEntity = defineEntity<ApiKeyRecord>({
  name: ENTITY.apiKey,
  key: (record) => keys.apiKey(record.merchant_id, record.id),
  parse: apiKeyRecordOf,
});

/** The same record under the key's SHA-256 hash, which authentication reads; the hash is its key only. */
export const apiKeyHashEntity = defineEntity<ApiKeyRecord, { readonly key_hash: string }>({
  name: ENTITY.apiKeyHash,
  key: (_record, { key_hash }) => keys.apiKeyByHash(key_hash),
  parse: apiKeyRecordOf,
});

/** The lookup from a key's id to its merchant and hash, by which a key is revoked on both of its items. */
export interface ApiKeyIdLookup {
  readonly id: string;
  readonly merchant_id: string;
  readonly key_hash: string;
}

/** A key id's lookup item. */
export const apiKeyIdEntity = defineEntity<ApiKeyIdLookup>({
  name: ENTITY.apiKeyId,
  key: (lookup) => keys.apiKeyById(lookup.id),
});
