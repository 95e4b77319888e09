import { isOnTrack, monthOf, periodBounds, recoveryProgressOf, sumTotals } from '#core/recovery-goal';

describe('monthOf', () => {
  it.each([
    ['2026-10-31T23:59:59.999Z', '2026-10'],
    ['2026-11-01T00:00:00.000Z', '2026-11'],
    ['2026-10-31T22:30:00-05:00', '2026-11'],
  ])('puts %s in %s (UTC)', (at, month) => {
    // Act and assess
    expect(monthOf(at)).toBe(month);
  });

  it('refuses what is not a timestamp', () => {
    // Act and assess
    expect(() => monthOf('yesterday')).toThrow(RangeError);
  });
});

describe('periodBounds', () => {
  it.each([
    ['monthly', '2026-11-15T12:00:00Z', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z', ['2026-11']],
    ['monthly', '2026-12-31T23:59:59.999Z', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', ['2026-12']],
    ['quarterly', '2026-11-15T12:00:00Z', '2026-10-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', ['2026-10', '2026-11', '2026-12']],
    ['quarterly', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z', ['2026-01', '2026-02', '2026-03']],
    ['quarterly', '2026-06-30T23:59:59Z', '2026-04-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z', ['2026-04', '2026-05', '2026-06']],
    [
      'annual',
      '2026-07-04T00:00:00Z',
      '2026-01-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
      ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11', '2026-12'],
    ],
  ] as const)('gives the %s period containing %s', (period, now, start, end, months) => {
    // Act
    const bounds = periodBounds(period, new Date(now));
    // Assess
    expect({ start: bounds.start.toISOString(), end: bounds.end.toISOString(), months: bounds.months }).toEqual({ start, end, months });
  });
});

describe('sumTotals and recoveryProgressOf', () => {
  it('adds counts and amounts by currency, and divides recovered by failed', () => {
    // Prepare
    const totals = sumTotals([
      { failedCount: 3, recoveredCount: 1, failedAmounts: { usd: 3000 }, recoveredAmounts: { usd: 1000 } },
      { failedCount: 1, recoveredCount: 0, failedAmounts: { eur: 500 }, recoveredAmounts: {} },
      { failedCount: 0, recoveredCount: 0, failedAmounts: {}, recoveredAmounts: {} },
      { failedCount: 2, recoveredCount: 2, failedAmounts: { usd: 200, eur: 50 }, recoveredAmounts: { usd: 200, eur: 50 } },
    ]);
    // Act
    const progress = recoveryProgressOf('quarterly', periodBounds('quarterly', new Date('2026-11-15T00:00:00Z')), totals);
    // Assess
    expect(progress).toEqual({
      period: 'quarterly',
      period_start: '2026-10-01T00:00:00.000Z',
      period_end: '2027-01-01T00:00:00.000Z',
      failed_payments: 6,
      recovered_payments: 3,
      recovery_rate: 0.5,
      failed_amounts: { usd: 3200, eur: 550 },
      recovered_amounts: { usd: 1200, eur: 50 },
    });
  });

  it('gives a rate of 0 when nothing failed', () => {
    // Act
    const progress = recoveryProgressOf('monthly', periodBounds('monthly', new Date('2026-11-15T00:00:00Z')), sumTotals([]));
    // Assess
    expect(progress).toMatchObject({ failed_payments: 0, recovered_payments: 0, recovery_rate: 0, failed_amounts: {}, recovered_amounts: {} });
  });
});

describe('isOnTrack', () => {
  it.each([
    [0.5, 0.5, true],
    [0.5, 0.49, false],
    [0, 0, true],
    [1, 0.99, false],
    [null, 0.7, null],
  ])('with target %p and rate %p is %p', (target, rate, expected) => {
    // Act and assess
    expect(isOnTrack(target, { recovery_rate: rate })).toBe(expected);
  });
});
