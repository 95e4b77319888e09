import { AT_RISK_STATUSES, combine, openStateOf } from '#core/analytics/open-state';

describe('openStateOf', () => {
  it('reads counts and per-currency amounts by status, and zeros when the item does not exist', () => {
    // Prepare
    const counters = {
      pending_count: 2,
      pending_amount_usd: 3000,
      pending_amount_eur: 0,
      retrying_count: 1,
      retrying_amount_eur: 700,
      paused_count: 1,
      paused_amount_usd: 900,
    };
    // Act
    const state = openStateOf(counters);
    const empty = openStateOf({});
    // Assess
    expect(state).toEqual({
      pending: { count: 2, amount_by_currency: { usd: 3000 } },
      retrying: { count: 1, amount_by_currency: { eur: 700 } },
      paused: { count: 1, amount_by_currency: { usd: 900 } },
    });
    expect(empty.pending).toEqual({ count: 0, amount_by_currency: {} });
  });
});

describe('combine', () => {
  it('adds pending and retrying per currency and leaves paused out of the at-risk figures', () => {
    // Prepare
    const state = openStateOf({
      pending_count: 2,
      pending_amount_usd: 3000,
      retrying_count: 2,
      retrying_amount_usd: 500,
      retrying_amount_eur: 700,
      paused_count: 4,
      paused_amount_usd: 900,
    });
    // Act
    const atRisk = combine(state, AT_RISK_STATUSES);
    // Assess
    expect(atRisk).toEqual({ count: 4, amount_by_currency: { eur: 700, usd: 3500 } });
  });
});
