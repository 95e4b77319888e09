import { daysBetween, isCalendarDay, meteredRecoveryOf, meteringOf, meteringTotals } from '#core/metering';

const NOW = new Date('2026-11-25T08:00:00.000Z');
const payRollup = (bucket: string, currency: string, count: number, amount: number) => ({
  bucket,
  dims: { psp: 'stripe', decline_category: 'soft_retry', decline_code: 'insufficient_funds', currency },
  counters: { failed_count: count, failed_amount: amount, recovered_count: 0 },
});

describe('meteringOf', () => {
  it('counts recoveries and sums their amounts per currency, once per payment', () => {
    // Prepare
    const recoveries = [
      { payment_id: 'pe_1', amount: 2500, currency: 'usd' },
      { payment_id: 'pe_2', amount: 1500, currency: 'usd' },
      { payment_id: 'pe_3', amount: 3000, currency: 'jpy' },
      { payment_id: 'pe_1', amount: 2500, currency: 'usd' },
    ];
    // Act
    const metering = meteringOf('merch_1', '2026-11-24', recoveries, [], NOW);
    // Assess
    expect(metering).toMatchObject({
      recoveries: 3,
      recoveries_by_currency: { usd: 2, jpy: 1 },
      recovered_amount_by_currency: { usd: 4000, jpy: 3000 },
      payments_processed: 0,
      metered_at: NOW.toISOString(),
    });
  });

  it("adds the day's PAY rollups per currency and leaves out other buckets", () => {
    // Prepare
    const rollups = [
      payRollup('2026-11-24', 'usd', 2, 5000),
      payRollup('2026-11-24', 'usd', 1, 700),
      payRollup('2026-11-24', 'eur', 1, 900),
      payRollup('2026-11-23', 'usd', 9, 9),
    ];
    // Act
    const metering = meteringOf('merch_1', '2026-11-24', [], rollups, NOW);
    // Assess
    expect(metering).toMatchObject({
      payments_processed: 4,
      payments_processed_by_currency: { usd: 3, eur: 1 },
      processed_amount_by_currency: { usd: 5700, eur: 900 },
    });
  });
});

describe('meteredRecoveryOf', () => {
  it.each([
    [
      { payment_id: 'pe_1', amount: 10, currency: 'usd' },
      { payment_id: 'pe_1', amount: 10, currency: 'usd' },
    ],
    [{ payment_id: 'pe_1', amount: 10.5, currency: 'usd' }, undefined],
    [{ payment_id: 'pe_1', currency: 'usd' }, undefined],
    [{ amount: 10, currency: 'usd' }, undefined],
  ])('reads %j as %j', (object, expected) => {
    // Act / Assess
    expect(meteredRecoveryOf(object)).toEqual(expected);
  });
});

describe('meteringTotals', () => {
  it('adds counts and adds amounts only within each currency', () => {
    // Prepare
    const first = meteringOf('m', '2026-11-23', [{ payment_id: 'a', amount: 100, currency: 'usd' }], [payRollup('2026-11-23', 'usd', 1, 100)], NOW);
    const second = meteringOf('m', '2026-11-24', [{ payment_id: 'b', amount: 300, currency: 'jpy' }], [payRollup('2026-11-24', 'usd', 2, 50)], NOW);
    // Act
    const totals = meteringTotals([first, second]);
    // Assess
    expect(totals).toEqual({
      recoveries: 2,
      recoveries_by_currency: { usd: 1, jpy: 1 },
      recovered_amount_by_currency: { usd: 100, jpy: 300 },
      payments_processed: 3,
      payments_processed_by_currency: { usd: 3 },
      processed_amount_by_currency: { usd: 150 },
    });
  });
});

describe('days', () => {
  it.each([
    ['2026-11-24', true],
    ['2026-02-30', false],
    ['2026-1-02', false],
    ['x', false],
  ])('isCalendarDay(%s) is %s', (text, expected) => {
    // Act / Assess
    expect(isCalendarDay(text)).toBe(expected);
  });

  it('lists every day of a range across a month end, both ends included', () => {
    // Act / Assess
    expect(daysBetween('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  });
});
