import { EntityMismatchError } from '#data/entities/define-entity';
import { merchantEntity } from '#data/entities/merchant';
import type { Merchant } from '#core/merchants';

const merchant: Merchant = {
  id: 'merch_1',
  name: 'Acme',
  plan_tier: 'engine',
  rate_limits: { read_per_minute: 100, write_per_minute: 100 },
  created_at: '2026-01-02T03:04:05.000Z',
  updated_at: '2026-01-02T03:04:05.000Z',
};

describe('merchantEntity', () => {
  it('writes the merchant under its id and in the listing of every merchant (GSI1), oldest first', () => {
    // Act
    const item = merchantEntity.toItem(merchant);
    // Assess
    expect(item).toMatchObject({ PK: 'M#merch_1', SK: 'MERCHANT', entity: 'merchant', GSI1PK: 'MERCHANTS', GSI1SK: '2026-01-02T03:04:05.000Z#merch_1' });
    expect(Object.keys(item).sort()).toEqual(['GSI1PK', 'GSI1SK', 'PK', 'SK', 'created_at', 'entity', 'id', 'name', 'plan_tier', 'rate_limits', 'updated_at']);
  });

  it('reads back the merchant it wrote, without key and index attributes', () => {
    expect(merchantEntity.fromItem(merchantEntity.toItem(merchant))).toEqual(merchant);
  });

  it("refuses another entity's item", () => {
    expect(() => merchantEntity.fromItem({ PK: 'M#merch_1', SK: 'MERCHANT', entity: 'api_key' })).toThrow(EntityMismatchError);
  });
});
