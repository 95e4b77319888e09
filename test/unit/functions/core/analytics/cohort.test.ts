import { amountByCurrency, amountsIn, cohortSeries, cohortTotals, recoveryRates, reportingCurrency, rowsMatching } from '#core/analytics/cohort';
import type { RollupItem } from '#core/analytics/rollup-item';

/** A PAY rollup item as the projection writes it: counters of `count` payments of `amount` each. */
function payRow(
  bucket: string,
  dims: { psp?: string; decline_category?: string; decline_code?: string; currency?: string },
  counts: { failed: number; recovered?: number; terminal?: number; retry?: number; provider?: number },
  amount: number,
): RollupItem {
  const recovered = counts.recovered ?? 0;
  const terminal = counts.terminal ?? 0;
  return {
    bucket,
    dims: { psp: 'stripe', decline_category: 'soft_retry', decline_code: 'insufficient_funds', currency: 'usd', ...dims },
    counters: {
      failed_count: counts.failed,
      failed_amount: counts.failed * amount,
      recovered_count: recovered,
      recovered_amount: recovered * amount,
      terminal_count: terminal,
      terminal_amount: terminal * amount,
      recovered_by_retry_count: counts.retry ?? 0,
      recovered_by_retry_amount: (counts.retry ?? 0) * amount,
      recovered_by_provider_count: counts.provider ?? 0,
      recovered_by_provider_amount: (counts.provider ?? 0) * amount,
    },
  };
}

describe('cohortTotals', () => {
  it('counts every currency and keeps each currency its own amounts when items mix currencies', () => {
    // Prepare
    const rows = [
      payRow('2026-10-01', {}, { failed: 3, recovered: 1, terminal: 1, retry: 1 }, 1000),
      payRow('2026-10-02', { currency: 'eur' }, { failed: 2, recovered: 2, provider: 2 }, 500),
      payRow('2026-10-02', { psp: 'adyen' }, { failed: 1 }, 1000),
    ];
    // Act
    const totals = cohortTotals(rows);
    // Assess
    expect(totals.count).toEqual({
      failed: 6,
      recovered: 3,
      terminal: 1,
      open: 2,
      by_method: { retry: 1, card_update: 0, campaign_email: 0, campaign_sms: 0, provider: 2 },
    });
    expect(Object.keys(totals.by_currency)).toEqual(['eur', 'usd']);
    expect(amountsIn(totals, 'usd')).toMatchObject({ failed: 4000, recovered: 1000, terminal: 1000, open: 2000 });
    expect(amountsIn(totals, 'eur')).toMatchObject({ failed: 1000, recovered: 1000, terminal: 0, open: 0 });
    expect(amountByCurrency(totals, (amount) => amount.failed)).toEqual({ eur: 1000, usd: 4000 });
    expect(amountsIn(totals, 'gbp').failed).toBe(0);
  });
});

describe('reportingCurrency', () => {
  it('picks the asked currency, else the one with the most failed payments, ties alphabetical, usd when none', () => {
    // Prepare
    const mixed = cohortTotals([payRow('2026-10-01', { currency: 'gbp' }, { failed: 2 }, 1), payRow('2026-10-01', { currency: 'eur' }, { failed: 2 }, 9)]);
    const usdLess = cohortTotals([payRow('2026-10-01', { currency: 'jpy' }, { failed: 1 }, 1), payRow('2026-10-01', { currency: 'eur' }, { failed: 3 }, 1)]);
    // Act
    const answers = [reportingCurrency(mixed, 'usd'), reportingCurrency(mixed), reportingCurrency(usdLess), reportingCurrency(cohortTotals([]))];
    // Assess
    expect(answers).toEqual(['usd', 'eur', 'eur', 'usd']);
  });
});

describe('recoveryRates', () => {
  it('gives attempted over all failed and closed over recovered + terminal, by count and by amount, with their terms', () => {
    // Prepare
    const totals = cohortTotals([payRow('2026-10-01', {}, { failed: 7, recovered: 5, terminal: 2 }, 1000), payRow('2026-10-01', {}, { failed: 3 }, 2000)]);
    // Act
    const rates = recoveryRates(totals.count, amountsIn(totals, 'usd'));
    // Assess
    expect(rates).toEqual({
      attempted: { by_count: { rate: 0.5, numerator: 5, denominator: 10 }, by_amount: { rate: 0.3846, numerator: 5000, denominator: 13000 } },
      closed: { by_count: { rate: 0.7143, numerator: 5, denominator: 7 }, by_amount: { rate: 0.7143, numerator: 5000, denominator: 7000 } },
    });
  });

  it('answers 0 over 0 when nothing is closed yet', () => {
    // Prepare
    const totals = cohortTotals([payRow('2026-10-01', {}, { failed: 2 }, 100)]);
    // Act
    const rates = recoveryRates(totals.count, amountsIn(totals, 'usd'));
    // Assess
    expect(rates.closed.by_count).toEqual({ rate: 0, numerator: 0, denominator: 0 });
  });
});

describe('rowsMatching', () => {
  it('keeps the items whose dimensions hold every given value and ignores undefined filters', () => {
    // Prepare
    const rows = [
      payRow('2026-10-01', {}, { failed: 1 }, 1),
      payRow('2026-10-01', { psp: 'adyen' }, { failed: 1 }, 1),
      payRow('2026-10-01', { psp: 'adyen', decline_category: 'terminal' }, { failed: 1 }, 1),
    ];
    // Act
    const adyen = rowsMatching(rows, { psp: 'adyen', decline_category: undefined });
    const adyenTerminal = rowsMatching(rows, { psp: 'adyen', decline_category: 'terminal' });
    // Assess
    expect(adyen).toHaveLength(2);
    expect(adyenTerminal).toEqual([rows[2]]);
  });
});

describe('cohortSeries', () => {
  it('sums daily items into ISO weeks and gives every week of the period, empty ones with zeros', () => {
    // Prepare: 2026-10-05 is a Monday.
    const rows = [
      payRow('2026-10-05', {}, { failed: 1 }, 100),
      payRow('2026-10-11', {}, { failed: 2, recovered: 1 }, 100),
      payRow('2026-10-26', {}, { failed: 4 }, 100),
    ];
    // Act
    const series = cohortSeries(rows, { start_date: '2026-10-01', end_date: '2026-10-31', group_by: 'week' });
    // Assess
    expect(series.map((point) => [point.bucket, point.totals.count.failed, point.totals.count.recovered])).toEqual([
      ['2026-09-28', 0, 0],
      ['2026-10-05', 3, 1],
      ['2026-10-12', 0, 0],
      ['2026-10-19', 0, 0],
      ['2026-10-26', 4, 0],
    ]);
  });

  it('gives hourly buckets from hourly items', () => {
    // Prepare
    const rows = [payRow('2026-10-01T05', {}, { failed: 2 }, 100)];
    // Act
    const series = cohortSeries(rows, { start_date: '2026-10-01', end_date: '2026-10-01', group_by: 'hour' });
    // Assess
    expect(series).toHaveLength(24);
    expect(series[5]).toMatchObject({ bucket: '2026-10-01T05:00:00Z', totals: { count: { failed: 2 } } });
    expect(series.reduce((sum, point) => sum + point.totals.count.failed, 0)).toBe(2);
  });
});
