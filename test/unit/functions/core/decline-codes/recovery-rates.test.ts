import { RECOVERY_ADJUSTMENTS, recoveryRate, SUBCATEGORY_BASELINE } from '#core/decline-codes/recovery-rates';

describe('recoveryRate', () => {
  it('returns the subcategory baseline when given no adjustment', () => {
    // Act
    const rate = recoveryRate('hard_customer', 'expired');
    // Assess
    expect(rate).toBe(SUBCATEGORY_BASELINE.hard_customer.expired);
  });

  it('adds each named adjustment to the baseline and rounds to cents when given several', () => {
    // Act
    const rate = recoveryRate('soft_retry', 'limit', ['explicit_retry_signal', 'limit_resets_daily']);
    // Assess
    expect(rate).toBe(0.65);
    expect(RECOVERY_ADJUSTMENTS.explicit_retry_signal + RECOVERY_ADJUSTMENTS.limit_resets_daily).toBeCloseTo(0.15);
  });

  it('keeps the rate inside 0.01-0.95 when adjustments push it past either end', () => {
    // Act
    const low = recoveryRate('terminal', 'fraud', ['catch_all', 'prepaid_balance']);
    const high = recoveryRate('soft_retry', 'processing_error', ['explicit_retry_signal', 'updated_credentials_available', 'limit_resets_daily']);
    // Assess
    expect(low).toBe(0.01);
    expect(high).toBe(0.95);
  });

  it('puts every terminal baseline below every hard_customer one, and the best soft one on top, when compared', () => {
    // Act
    const bestSoft = Math.max(...Object.values(SUBCATEGORY_BASELINE.soft_retry));
    const [worstHard, bestHard] = [
      Math.min(...Object.values(SUBCATEGORY_BASELINE.hard_customer)),
      Math.max(...Object.values(SUBCATEGORY_BASELINE.hard_customer)),
    ];
    const bestTerminal = Math.max(...Object.values(SUBCATEGORY_BASELINE.terminal));
    // Assess
    expect(bestSoft).toBeGreaterThan(bestHard);
    expect(bestTerminal).toBeLessThan(worstHard);
  });
});
