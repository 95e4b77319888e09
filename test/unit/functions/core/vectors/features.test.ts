import { amountAngle, cosine, featureVector, normalised, type RecoveryFeatures, VECTOR_DIMENSION } from '#core/vectors/features';

const base: RecoveryFeatures = {
  declineCode: 'insufficient_funds',
  declineCategory: 'soft_retry',
  amount: 4999,
  currency: 'usd',
  segment: 'first_failure',
  strategy: 'retry',
  provider: 'stripe',
  failedAt: new Date('2026-03-02T14:00:00Z'),
};

const norm = (vector: Float32Array): number => Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));

describe('featureVector', () => {
  it('has the fixed dimension and unit length, whatever fields are known', () => {
    // Act
    const full = featureVector(base);
    const sparse = featureVector({ declineCode: 'do_not_honor', amount: 0 });

    // Assess
    expect(full).toHaveLength(VECTOR_DIMENSION);
    expect(sparse).toHaveLength(VECTOR_DIMENSION);
    expect(norm(full)).toBeCloseTo(1, 5);
    expect(norm(sparse)).toBeCloseTo(1, 5);
  });

  it('is deterministic and treats codes case-insensitively', () => {
    // Act
    const a = featureVector(base);
    const b = featureVector({ ...base, declineCode: ' Insufficient_Funds ', currency: 'USD' });

    // Assess
    expect(Array.from(b)).toEqual(Array.from(a));
  });

  it('scores the same code and a close amount above another code or a distant amount', () => {
    // Prepare
    const query = featureVector(base);

    // Act
    const closeAmount = cosine(query, featureVector({ ...base, amount: 5999 }));
    const farAmount = cosine(query, featureVector({ ...base, amount: 4_999_000 }));
    const otherCode = cosine(query, featureVector({ ...base, declineCode: 'stolen_card', declineCategory: 'hard_customer' }));

    // Assess
    expect(closeAmount).toBeGreaterThan(farAmount);
    expect(closeAmount).toBeGreaterThan(otherCode);
    expect(closeAmount).toBeLessThan(1);
  });

  it('leaves an unknown field out of the ranking: a query without strategy scores every strategy alike', () => {
    // Prepare
    const query = featureVector({ ...base, strategy: undefined, provider: undefined, failedAt: undefined });

    // Act
    const byRetry = cosine(query, featureVector({ ...base, strategy: 'retry' }));
    const byCardUpdate = cosine(query, featureVector({ ...base, strategy: 'card_update' }));

    // Assess
    expect(byRetry).toBeCloseTo(byCardUpdate, 6);
  });

  it('places hours on a circle: 23:00 is as close to 00:00 as 01:00 is', () => {
    // Prepare
    const at = (iso: string) => featureVector({ declineCode: 'x', amount: 100, failedAt: new Date(iso) });

    // Act
    const midnight = at('2026-03-02T00:00:00Z');
    const before = cosine(midnight, at('2026-03-02T23:00:00Z'));
    const after = cosine(midnight, at('2026-03-02T01:00:00Z'));
    const noon = cosine(midnight, at('2026-03-02T12:00:00Z'));

    // Assess (the same UTC day, so the same weekday)
    expect(before).toBeCloseTo(after, 6);
    expect(before).toBeGreaterThan(noon);
  });
});

describe('amountAngle', () => {
  it('grows with the log of the amount in major units and is capped at a million', () => {
    // Assess
    expect(amountAngle(0, 'usd')).toBe(0);
    expect(amountAngle(100_00, 'usd')).toBeCloseTo(amountAngle(100, 'jpy'), 10);
    expect(amountAngle(1_000_000_00, 'usd')).toBeCloseTo(Math.PI / 2, 2);
    expect(amountAngle(1_000_000_000_00, 'usd')).toBe(Math.PI / 2);
  });
});

describe('normalised and cosine', () => {
  it('keeps a zero vector at zero and scores it 0', () => {
    // Act
    const zero = normalised([0, 0, 0]);

    // Assess
    expect(Array.from(zero)).toEqual([0, 0, 0]);
    expect(cosine(zero, [1, 0, 0])).toBe(0);
    expect(cosine([1, 1, 0], [2, 2, 0])).toBeCloseTo(1, 6);
  });
});
