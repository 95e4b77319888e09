import { callbackTokenEntity } from '#data/entities/callback-token';
import { EntityMismatchError } from '#data/entities/define-entity';

const token = { source: 'legacy_email', created_at: '2026-01-02T03:04:05.000Z', expires_at: 1_770_000_000 } as const;
const tokenHash = 'c'.repeat(64);

describe('callbackTokenEntity', () => {
  it('writes a spent token under its hash, which is in the key and nowhere else on the item', () => {
    // Act
    const item = callbackTokenEntity.toItem(token, { token_hash: tokenHash });
    // Assess
    expect(item).toMatchObject({ PK: `CBTOKEN#${tokenHash}`, SK: 'CBTOKEN#legacy_email', entity: 'callback_token' });
    expect(Object.keys(item).sort()).toEqual(['PK', 'SK', 'created_at', 'entity', 'expires_at', 'source']);
  });

  it("reads back the spent token, and refuses another entity's item", () => {
    expect(callbackTokenEntity.fromItem(callbackTokenEntity.toItem(token, { token_hash: tokenHash }))).toEqual(token);
    expect(() => callbackTokenEntity.fromItem({ PK: `CBTOKEN#${tokenHash}`, SK: 'CBTOKEN#legacy_email', entity: 'message_ref' })).toThrow(EntityMismatchError);
  });
});
