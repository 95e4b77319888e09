import { amountBucketOf, attemptBucketOf, lookupKeyForInput, lookupKeyOf, normaliseLookupCode } from '#core/scoring/lookup-key';

describe('normaliseLookupCode', () => {
  it.each([
    ['insufficient_funds', 'insufficient_funds'],
    ['Insufficient Funds', 'insufficient_funds'],
    ['  insufficient-funds  ', 'insufficient_funds'],
    ['gateway.transaction_processing.low_balance', 'gateway_transaction_processing_low_balance'],
    ['INSUFFICIENT_FUNDS', 'insufficient_funds'],
    ['05', '05'],
    ['R1', 'r1'],
    ['#', 'unknown'],
    ['', 'unknown'],
    [`${'a'.repeat(63)}-b`, 'a'.repeat(63)],
  ])('normalises %p to %p', (code, expected) => {
    // Act and assess
    expect(normaliseLookupCode(code)).toBe(expected);
  });
});

describe('attemptBucketOf', () => {
  it.each([
    [1, '1'],
    [2, '2'],
    [3, '3'],
    [4, '4+'],
    [57, '4+'],
  ])('puts attempt %i in bucket %s', (attempt, bucket) => {
    // Act and assess
    expect(attemptBucketOf(attempt)).toBe(bucket);
  });
});

describe('amountBucketOf', () => {
  it.each([
    [0, 'usd', 'under_10'],
    [999, 'usd', 'under_10'],
    [1000, 'usd', '10_50'],
    [4999, 'usd', '10_50'],
    [5000, 'usd', '50_200'],
    [20000, 'usd', '200_1000'],
    [100000, 'usd', '1000_plus'],
    [5000, 'jpy', '10_50'],
    [750_000, 'jpy', '1000_plus'],
    [4000, 'EUR', '10_50'],
    [4999, 'eur', '50_200'],
    [500_000, 'huf', '10_50'],
  ])('puts %i %s in %s', (amount, currency, bucket) => {
    // Act and assess
    expect(amountBucketOf(amount, currency)).toBe(bucket);
  });
});

describe('lookupKeyOf', () => {
  it('joins the normalised code, the buckets and the lowercase currency with #', () => {
    // Act and assess
    expect(lookupKeyOf({ declineCode: 'Insufficient Funds', attemptBucket: '2', amountBucket: '10_50', currency: 'USD' })).toBe(
      'insufficient_funds#2#10_50#usd',
    );
  });

  it('gives a scoring request the key of its code, attempt, amount and currency', () => {
    // Act and assess
    expect(lookupKeyForInput({ declineCode: 'card_declined', amountCents: 25_000, currency: 'gbp', attemptNumber: 6, hourOfDay: 12 })).toBe(
      'card_declined#4+#200_1000#gbp',
    );
  });
});
