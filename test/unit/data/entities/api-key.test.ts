import type { ApiKeyRecord } from '#core/api-keys';
import { apiKeyEntity, apiKeyHashEntity, apiKeyIdEntity } from '#data/entities/api-key';
import { EntityMismatchError } from '#data/entities/define-entity';

const record: ApiKeyRecord = {
  id: 'key_1',
  merchant_id: 'merch_1',
  scopes: ['read'],
  mode: 'test',
  prefix: 'rk_test_Ab3x',
  last4: 'wxyz',
  created_at: '2026-01-02T03:04:05.000Z',
  expires_at: null,
  revoked_at: null,
};
const hash = 'a'.repeat(64);
const RECORD_ATTRIBUTES = ['created_at', 'expires_at', 'id', 'last4', 'merchant_id', 'mode', 'prefix', 'revoked_at', 'scopes'];

describe('API key entities', () => {
  it('write the record under the merchant and under the hash, which is in the key only', () => {
    // Act
    const listed = apiKeyEntity.toItem(record);
    const byHash = apiKeyHashEntity.toItem(record, { key_hash: hash });
    // Assess
    expect(listed).toMatchObject({ PK: 'M#merch_1', SK: 'KEY#key_1', entity: 'api_key' });
    expect(byHash).toMatchObject({ PK: `APIKEY#${hash}`, SK: 'APIKEY', entity: 'api_key_hash' });
    expect(Object.keys(listed).sort()).toEqual(['PK', 'SK', 'entity', ...RECORD_ATTRIBUTES].sort());
    expect(Object.keys(byHash).sort()).toEqual(Object.keys(listed).sort());
  });

  it('read the record back from either item', () => {
    expect(apiKeyEntity.fromItem(apiKeyEntity.toItem(record))).toEqual(record);
    expect(apiKeyHashEntity.fromItem(apiKeyHashEntity.toItem(record, { key_hash: hash }))).toEqual(record);
  });

  it('read an item written before keys could expire or be revoked as never expiring and not revoked', () => {
    // Prepare
    const { expires_at: _expires, revoked_at: _revoked, ...older } = apiKeyEntity.toItem(record);
    // Act
    const read = apiKeyEntity.fromItem(older);
    // Assess
    expect(read.expires_at).toBeNull();
    expect(read.revoked_at).toBeNull();
  });

  it('write the id lookup with the merchant and the hash, and read it back', () => {
    // Prepare
    const lookup = { id: 'key_1', merchant_id: 'merch_1', key_hash: hash };
    // Act
    const item = apiKeyIdEntity.toItem(lookup);
    // Assess
    expect(item).toMatchObject({ PK: 'KEYID#key_1', SK: 'APIKEY', entity: 'api_key_id' });
    expect(apiKeyIdEntity.fromItem(item)).toEqual(lookup);
  });

  it("refuse each other's items: the hash item is not the listed one", () => {
    expect(() => apiKeyEntity.fromItem(apiKeyHashEntity.toItem(record, { key_hash: hash }))).toThrow(EntityMismatchError);
    expect(() => apiKeyHashEntity.fromItem(apiKeyEntity.toItem(record))).toThrow(EntityMismatchError);
    expect(() => apiKeyIdEntity.fromItem(apiKeyEntity.toItem(record))).toThrow(EntityMismatchError);
  });
});
