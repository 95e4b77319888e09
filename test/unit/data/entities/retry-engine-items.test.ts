import { EntityMismatchError } from '#data/entities/define-entity';
import { gatewayConfigEntity } from '#data/entities/gateway-config';
import { sandboxChargeEntity } from '#data/entities/sandbox-charge';
import { scoreLookupEntity } from '#data/entities/score-lookup';
import type { SandboxCharge } from '#data/sandbox-charge-repository';

describe('sandboxChargeEntity', () => {
  const charge: SandboxCharge = {
    idempotency_key: 'retry-pe_1-1',
    payment_id: 'pe_1',
    state: 'answered',
    outcome: { status: 'succeeded', providerChargeId: 'ch_1' },
    amount: 1200,
    currency: 'EUR',
    calls: 1,
    created_at: '2026-01-02T03:04:05.000Z',
  };

  it('writes the charge under the merchant it charged for, which is in its key only', () => {
    // Act
    const item = sandboxChargeEntity.toItem({ ...charge, expires_at: 1_770_000_000 }, { merchant_id: 'merch_1' });
    // Assess
    expect(item).toMatchObject({ PK: 'M#merch_1', SK: 'SANDBOXCHG#retry-pe_1-1', entity: 'sandbox_charge', expires_at: 1_770_000_000 });
    expect(item).not.toHaveProperty('merchant_id');
    expect(Object.keys(item).filter((name) => name.startsWith('GSI'))).toEqual([]);
  });

  it("reads back the charge without its expiry, and refuses another entity's item", () => {
    expect(sandboxChargeEntity.fromItem(sandboxChargeEntity.toItem({ ...charge, expires_at: 1_770_000_000 }, { merchant_id: 'merch_1' }))).toEqual(charge);
    expect(() => sandboxChargeEntity.fromItem({ PK: 'M#merch_1', SK: 'SANDBOXCHG#retry-pe_1-1', entity: 'card_ledger' })).toThrow(EntityMismatchError);
  });
});

describe('gatewayConfigEntity', () => {
  const config = { merchant_id: 'merch_1', psp: 'stripe', gateway: 'sandbox', updated_at: '2026-01-02T03:04:05.000Z' } as const;

  it('writes the gateway of a provider under the merchant, and reads it back', () => {
    // Act
    const item = gatewayConfigEntity.toItem(config);
    // Assess
    expect(item).toMatchObject({ PK: 'M#merch_1', SK: 'GATEWAY#stripe', entity: 'gateway_config', gateway: 'sandbox' });
    expect(gatewayConfigEntity.fromItem(item)).toEqual(config);
  });

  it("refuses another entity's item", () => {
    expect(() => gatewayConfigEntity.fromItem({ PK: 'M#merch_1', SK: 'GATEWAY#stripe', entity: 'settings', gateway: 'stripe' })).toThrow(EntityMismatchError);
  });
});

describe('scoreLookupEntity', () => {
  const entry = {
    lookup_key: 'insufficient_funds|1|b2|EUR',
    score: 0.42,
    delay_hours: 24,
    confidence: 0.8,
    model_version: 'lgbm-1',
    updated_at: '2026-01-02T03:04:05.000Z',
  };

  it('writes each lookup key in its own partition, under no merchant, and reads it back', () => {
    // Act
    const item = scoreLookupEntity.toItem(entry);
    // Assess
    expect(item).toMatchObject({ PK: `SCORELOOKUP#${entry.lookup_key}`, SK: 'SCORELOOKUP', entity: 'score_lookup' });
    expect(scoreLookupEntity.fromItem(item)).toEqual(entry);
  });

  it('keeps reasoning and factors only when the score has them', () => {
    // Prepare
    const explained = { ...entry, reasoning: 'issuer retries well after payday', factors: [] };
    // Act
    const plain = scoreLookupEntity.toItem(entry);
    // Assess
    expect(plain).not.toHaveProperty('reasoning');
    expect(scoreLookupEntity.fromItem(scoreLookupEntity.toItem(explained))).toEqual(explained);
  });

  it("refuses another entity's item", () => {
    expect(() => scoreLookupEntity.fromItem({ PK: 'SCORELOOKUP#k', SK: 'SCORELOOKUP' })).toThrow(EntityMismatchError);
  });
});
