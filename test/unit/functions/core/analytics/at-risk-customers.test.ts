import { cohortsOf, exposuresOf, HIGH_VALUE_THRESHOLDS, isHighValue } from '#core/analytics/at-risk-customers';
import type { PaymentRecord } from '#core/payments';

const payment = (id: string, customer: string, amount: number, currency: string, created: string, subcategory = 'insufficient_funds') =>
  ({ id, customer_id: customer, amount, currency, created_at: created, decline_subcategory: subcategory }) as unknown as PaymentRecord;

describe('at-risk customers', () => {
  it('groups open payments by customer, amounts per currency, newest customer first', () => {
    // Prepare
    const open = [
      payment('pe_1', 'cust_a', 1000, 'usd', '2026-03-01T00:00:00Z'),
      payment('pe_2', 'cust_b', 500, 'eur', '2026-03-02T00:00:00Z', 'expired'),
      payment('pe_3', 'cust_a', 3000, 'jpy', '2026-03-03T00:00:00Z'),
      payment('pe_4', 'cust_a', 250, 'usd', '2026-02-01T00:00:00Z'),
    ];
    // Act
    const exposures = exposuresOf(open);
    // Assess
    expect(exposures).toEqual([
      { customer_id: 'cust_b', open_payment_ids: ['pe_2'], at_risk_by_currency: { eur: 500 }, expired_card: true, latest_failure_at: '2026-03-02T00:00:00Z' },
      {
        customer_id: 'cust_a',
        open_payment_ids: ['pe_1', 'pe_3', 'pe_4'],
        at_risk_by_currency: { usd: 1250, jpy: 3000 },
        expired_card: false,
        latest_failure_at: '2026-03-03T00:00:00Z',
      },
    ]);
  });

  it('judges high value per currency, in that currency’s minor unit (jpy has none)', () => {
    // Prepare
    const [usd] = exposuresOf([payment('pe_1', 'cust_a', 10_000, 'usd', '2026-03-01T00:00:00Z')]);
    const [jpy] = exposuresOf([payment('pe_2', 'cust_b', 10_000, 'jpy', '2026-03-01T00:00:00Z')]);
    if (usd === undefined || jpy === undefined) throw new Error('no exposure');
    // Act, Assess: $100 at risk + $400 of lifetime value reaches $500; ¥10,000 + ¥60,000 does not reach ¥75,000.
    expect(HIGH_VALUE_THRESHOLDS.usd).toBe(50_000);
    expect(isHighValue(usd, { lifetime_value_by_currency: { usd: 40_000 } })).toBe(true);
    expect(isHighValue(usd, { lifetime_value_by_currency: { usd: 39_999 } })).toBe(false);
    expect(isHighValue(jpy, { lifetime_value_by_currency: { jpy: 60_000 } })).toBe(false);
    expect(isHighValue(jpy, { lifetime_value_by_currency: { jpy: 65_000 } })).toBe(true);
  });

  it('lists every cohort a customer is in, all first', () => {
    // Prepare
    const [exposure] = exposuresOf([payment('pe_1', 'cust_a', 60_000, 'usd', '2026-03-01T00:00:00Z', 'expired')]);
    if (exposure === undefined) throw new Error('no exposure');
    // Act, Assess
    expect(cohortsOf(exposure, { failed_payments: 2, lifetime_value_by_currency: {} })).toEqual(['all', 'expiring_card', 'repeat_failure', 'high_value']);
    expect(cohortsOf({ ...exposure, expired_card: false, at_risk_by_currency: { usd: 1 } }, { failed_payments: 1, lifetime_value_by_currency: {} })).toEqual([
      'all',
    ]);
  });
});
