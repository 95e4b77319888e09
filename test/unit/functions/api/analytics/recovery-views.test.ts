import { recoveryAnalyticsView } from '#api/analytics/recovery-views';
import type { RollupItem } from '#core/analytics/rollup-item';

const row = (bucket: string, category: string, currency: string, failed: number, recovered: number, amount: number): RollupItem => ({
  bucket,
  dims: { psp: 'stripe', decline_category: category, decline_code: 'x', currency },
  counters: {
    failed_count: failed,
    failed_amount: failed * amount,
    recovered_count: recovered,
    recovered_amount: recovered * amount,
    recovered_by_retry_count: recovered,
    recovered_by_retry_amount: recovered * amount,
  },
});

describe('recoveryAnalyticsView', () => {
  it("keeps A's by_category array and gives B's keyed form as by_category_keyed, and B's meta beside A's period", () => {
    // Prepare
    const rows = [row('2026-10-01', 'soft_retry', 'eur', 4, 1, 1000), row('2026-10-02', 'hard_customer', 'usd', 2, 2, 500)];
    const period = { start_date: '2026-10-01', end_date: '2026-10-03', group_by: 'day' } as const;
    // Act
    const view = recoveryAnalyticsView(rows, period, undefined);
    // Assess
    expect(view.by_category.map((category) => [category.category, category.failures, category.recovered])).toEqual([
      ['soft_retry', 4, 1],
      ['hard_customer', 2, 2],
      ['terminal', 0, 0],
      ['unknown', 0, 0],
    ]);
    expect(view.by_category_keyed).toEqual({
      soft_retry: { count: 4, recovered: 1, rate: 0.25 },
      hard_customer: { count: 2, recovered: 2, rate: 1 },
      terminal: { count: 0, recovered: 0, rate: 0 },
      unknown: { count: 0, recovered: 0, rate: 0 },
    });
    expect(view.meta).toEqual(period);
    expect(view.period).toEqual(period);
  });

  it('reports amounts in the currency with the most failures, every currency in the maps, and methods in both', () => {
    // Prepare
    const rows = [row('2026-10-01', 'soft_retry', 'eur', 4, 1, 1000), row('2026-10-02', 'hard_customer', 'usd', 2, 2, 500)];
    // Act
    const view = recoveryAnalyticsView(rows, { start_date: '2026-10-01', end_date: '2026-10-03', group_by: 'day' }, undefined);
    // Assess
    expect(view.summary).toMatchObject({
      currency: 'eur',
      total_failed: 6,
      total_recovered: 3,
      total_pending: 3,
      recovery_rate: 0.5,
      total_failed_amount: 4000,
      total_recovered_amount: 1000,
      total_failed_amount_by_currency: { eur: 4000, usd: 1000 },
      total_recovered_amount_by_currency: { eur: 1000, usd: 1000 },
    });
    expect(view.summary.recovered_by_method.retry).toEqual({ count: 3, amount: 1000, amount_by_currency: { eur: 1000, usd: 1000 } });
    expect(view.summary.by_currency.usd?.rates.attempted.by_amount).toEqual({ rate: 1, numerator: 1000, denominator: 1000 });
    expect(view.series.map((point) => [point.bucket, point.total_failed, point.total_failed_amount])).toEqual([
      ['2026-10-01', 4, 4000],
      ['2026-10-02', 2, 0],
      ['2026-10-03', 0, 0],
    ]);
  });
});
