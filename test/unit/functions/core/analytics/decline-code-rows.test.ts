import type { RollupItem } from '#core/analytics/rollup-item';
import { compareDeclineCodePositions, declineCodeRows } from '#core/analytics/decline-code-rows';

const row = (psp: string, code: string, category: string, failed: number, recovered = 0, currency = 'usd'): RollupItem => ({
  bucket: '2026-10-01',
  dims: { psp, decline_category: category, decline_code: code, currency },
  counters: { failed_count: failed, failed_amount: failed * 1000, recovered_count: recovered, recovered_amount: recovered * 1000 },
});

describe('declineCodeRows', () => {
  it('gives one row per code and category, most occurrences first, then code, with the catalogue subcategory', () => {
    // Prepare
    const rows = [
      row('stripe', 'insufficient_funds', 'soft_retry', 2, 1),
      row('adyen', 'insufficient_funds', 'soft_retry', 1, 0, 'eur'),
      row('stripe', 'expired_card', 'hard_customer', 3),
      row('stripe', 'card_declined', 'unknown', 3),
      row('stripe', '', 'unknown', 4, 2),
    ];
    // Act
    const { rows: codes, withoutCode } = declineCodeRows(rows);
    // Assess
    expect(codes.map((code) => [code.decline_code, code.category, code.subcategory, code.totals.count.failed, code.totals.count.recovered])).toEqual([
      ['card_declined', 'unknown', 'generic', 3, 0],
      ['expired_card', 'hard_customer', 'expired', 3, 0],
      ['insufficient_funds', 'soft_retry', 'balance', 3, 1],
    ]);
    expect(Object.keys(codes[2]?.totals.by_currency ?? {})).toEqual(['eur', 'usd']);
    expect(withoutCode.count).toMatchObject({ failed: 4, recovered: 2 });
  });

  it('gives a null subcategory to a code the catalogue does not have in that category', () => {
    // Prepare
    const rows = [row('ingest', 'made_up_code', 'soft_retry', 1)];
    // Act
    const { rows: codes } = declineCodeRows(rows);
    // Assess
    expect(codes).toEqual([expect.objectContaining({ decline_code: 'made_up_code', subcategory: null })]);
  });
});

describe('compareDeclineCodePositions', () => {
  it('orders by occurrences descending, then code, then category', () => {
    // Prepare
    const positions = [
      { occurrences: 1, decline_code: 'a', category: 'unknown' },
      { occurrences: 5, decline_code: 'b', category: 'unknown' },
      { occurrences: 5, decline_code: 'a', category: 'unknown' },
      { occurrences: 5, decline_code: 'a', category: 'soft_retry' },
    ];
    // Act
    const sorted = [...positions].sort(compareDeclineCodePositions);
    // Assess
    expect(sorted.map((position) => `${position.occurrences}:${position.decline_code}:${position.category}`)).toEqual([
      '5:a:soft_retry',
      '5:a:unknown',
      '5:b:unknown',
      '1:a:unknown',
    ]);
  });
});
