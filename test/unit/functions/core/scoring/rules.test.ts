import fc from 'fast-check';
import { findDeclineCode } from '#core/decline-codes/catalogue';
import { SUBCATEGORY_BASELINE } from '#core/decline-codes/recovery-rates';
import { CURRENCIES } from '#core/money';
import { RULES_MODEL_VERSION, ladderOf, scoreRetryByRules } from '#core/scoring/rules';
import type { RetryScoreInput } from '#core/scoring/types';

/** A 49.99 usd charge at noon, first attempt: no signal beyond the decline itself. */
const input = (overrides: Partial<RetryScoreInput> = {}): RetryScoreInput => ({
  declineCode: 'insufficient_funds',
  psp: 'stripe',
  amountCents: 4999,
  currency: 'usd',
  attemptNumber: 1,
  hourOfDay: 12,
  ...overrides,
});

const factorNames = (overrides: Partial<RetryScoreInput>): string[] => scoreRetryByRules(input(overrides)).factors.map((factor) => factor.name);
const factor = (overrides: Partial<RetryScoreInput>, name: string) => scoreRetryByRules(input(overrides)).factors.find((candidate) => candidate.name === name);

describe('scoreRetryByRules', () => {
  describe('delay ladder', () => {
    it.each([
      ['processing_error', 'stripe', 'processing_error', [1, 4, 12, 24, 24, 24]],
      ['insufficient_funds', 'stripe', 'balance', [24, 72, 120, 168, 168, 168]],
      ['card_velocity_exceeded', 'stripe', 'limit', [24, 72, 72, 72, 72, 72]],
      ['2057', 'braintree', 'issuer_hold', [24, 48, 72, 72, 72, 72]],
      ['do_not_honor', 'stripe', 'generic', [24, 48, 72, 72, 72, 72]],
      ['call_issuer', 'stripe', 'referral', [24, 48, 72, 72, 72, 72]],
      ['no_such_code_anywhere', undefined, 'unmapped', [24, 48, 72, 72, 72, 72]],
    ] as const)('waits the %s (%s, %s) ladder over attempts 1-6', (declineCode, psp, subcategory, delays) => {
      // Act
      const waits = delays.map(
        (_delay, index) => scoreRetryByRules(input({ declineCode, ...(psp ? { psp } : { psp: undefined }), attemptNumber: index + 1 })).delayHours,
      );
      // Assess
      expect(waits).toEqual(delays);
      expect(ladderOf(subcategory)).toEqual([...new Set(delays)]);
    });

    it.each([
      [0, [24, 24, 24, 24]],
      [1, [24, 24, 24, 24]],
      [2, [24, 48, 48, 48]],
      [5, [24, 72, 120, 120]],
      [14, [24, 72, 120, 168]],
    ])('retries a balance decline on a payday %i days away when it comes before the ladder step (attempts 1, 2, 3, 4: %j h)', (days, hours) => {
      // Act
      const waits = [1, 2, 3, 4].map((attemptNumber) => scoreRetryByRules(input({ paydayProximityDays: days, attemptNumber })).delayHours);
      // Assess: the balance ladder is 24, 72, 120, 168 h; the payday wins whenever it is sooner
      expect(waits).toEqual(hours);
    });

    it('ignores the payday for a decline that is not a balance decline', () => {
      // Act
      const result = scoreRetryByRules(input({ declineCode: 'processing_error', paydayProximityDays: 6 }));
      // Assess
      expect(result.delayHours).toBe(1);
      expect(result.factors.map((f) => f.name)).not.toContain('payday_proximity_days');
    });

    it.each([
      ['24', 1],
      ['25', 24],
      ['26', 48],
      ['30', 240],
    ])('takes the wait a Mastercard advice code %s fixes (%i h) over the ladder', (adviceCode, hours) => {
      // Act
      const waits = [1, 3].map(
        (attemptNumber) => scoreRetryByRules(input({ adviceCode, network: 'mastercard', attemptNumber, paydayProximityDays: 9 })).delayHours,
      );
      // Assess
      expect(waits).toEqual([hours, hours]);
    });
  });

  describe('score', () => {
    it.each(['processing_error', 'insufficient_funds', 'card_velocity_exceeded', 'do_not_honor', 'no_such_code_anywhere'])(
      'decays strictly with every further attempt of %s',
      (declineCode) => {
        // Act
        const scores = [1, 2, 3, 4, 5, 6, 7, 8].map((attemptNumber) => scoreRetryByRules(input({ declineCode, attemptNumber })).score);
        // Assess
        for (let i = 1; i < scores.length; i += 1) expect(scores[i]).toBeLessThan(scores[i - 1] as number);
        expect(scores[0]).toBeGreaterThan(0);
      },
    );

    it('decays a balance decline less per attempt than a processing error', () => {
      // Act
      const drop = (declineCode: string): number =>
        scoreRetryByRules(input({ declineCode, attemptNumber: 1 })).score - scoreRetryByRules(input({ declineCode, attemptNumber: 3 })).score;
      // Assess
      expect(drop('insufficient_funds')).toBeLessThan(drop('processing_error'));
    });

    it.each([
      ['insufficient_funds', 'stripe'],
      ['issuer_not_available', 'stripe'],
      ['withdrawal_count_limit_exceeded', 'stripe'],
    ])('starts a first attempt without other signals at the catalogue recovery_rate of %s', (declineCode, psp) => {
      // Prepare
      const record = findDeclineCode(psp, declineCode);
      // Act
      const result = scoreRetryByRules(input({ declineCode, psp }));
      // Assess
      expect(result.score).toBeCloseTo(record?.recovery_rate as number, 3);
    });

    it('starts an unmapped code at the unknown/unmapped baseline', () => {
      // Act
      const result = scoreRetryByRules(input({ declineCode: 'no_such_code_anywhere', psp: undefined }));
      // Assess
      expect(result.score).toBeCloseTo(SUBCATEGORY_BASELINE.unknown.unmapped, 3);
      expect(result.confidence).toBeLessThan(scoreRetryByRules(input()).confidence);
    });

    it('answers the same input with the same result', () => {
      // Prepare
      const rich = input({
        attemptNumber: 3,
        hourOfDay: 6,
        isDebit: true,
        subscriptionMonths: 14,
        successRate90d: 0.8,
        anomalyScore: 0.3,
        paydayProximityDays: 2,
      });
      // Act and assess
      expect(scoreRetryByRules(rich)).toEqual(scoreRetryByRules({ ...rich }));
    });

    it('keeps the score within 0-1, the delay positive and the confidence within 0-1 for any input', () => {
      // Act and assess
      fc.assert(
        fc.property(
          fc.record({
            declineCode: fc.oneof(
              fc.constantFrom('insufficient_funds', 'processing_error', 'expired_card', 'fraudulent', '51', '04', 'R1', 'do_not_honor'),
              fc.string({ maxLength: 20 }),
            ),
            psp: fc.option(fc.constantFrom('stripe', 'adyen', 'braintree', 'paypal'), { nil: undefined }),
            amountCents: fc.integer({ min: 0, max: 999_999_999_999 }),
            currency: fc.constantFrom(...CURRENCIES),
            attemptNumber: fc.integer({ min: 1, max: 100 }),
            hourOfDay: fc.integer({ min: 0, max: 23 }),
            isDebit: fc.option(fc.boolean(), { nil: undefined }),
            subscriptionMonths: fc.option(fc.integer({ min: 0, max: 1200 }), { nil: undefined }),
            previousSuccessfulPayments: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
            paydayProximityDays: fc.option(fc.integer({ min: 0, max: 31 }), { nil: undefined }),
            successRate90d: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
            anomalyScore: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
            daysSinceFailure: fc.option(fc.integer({ min: 0, max: 3650 }), { nil: undefined }),
          }),
          (random) => {
            const result = scoreRetryByRules(random);
            return (
              result.score >= 0 &&
              result.score <= 1 &&
              result.delayHours > 0 &&
              result.confidence >= 0 &&
              result.confidence <= 1 &&
              result.source === 'rules' &&
              result.modelVersion === RULES_MODEL_VERSION &&
              result.reasoning.length > 0 &&
              result.factors.length > 0
            );
          },
        ),
        { numRuns: 300 },
      );
    });
  });

  describe('declines that are not retried', () => {
    it.each([
      ['expired_card', 'stripe', 'hard_customer', 'not retried until the card is updated'],
      ['stolen_card', 'stripe', 'hard_customer', 'not retried until the card is updated'],
      ['fraudulent', 'stripe', 'terminal', 'never retried'],
      ['do_not_try_again', 'stripe', 'terminal', 'never retried'],
      ['stop_payment_order', 'stripe', 'terminal', 'never retried'],
      ['04', undefined, 'terminal', 'never retried'],
      ['R1', undefined, 'terminal', 'never retried'],
    ] as const)('scores %s (%s) 0 with a positive delay: %s, "%s"', (declineCode, psp, category, verdict) => {
      // Act
      const results = [1, 2, 5].map((attemptNumber) =>
        scoreRetryByRules(input({ declineCode, ...(psp ? { psp } : { psp: undefined }), attemptNumber, successRate90d: 1, paydayProximityDays: 0 })),
      );
      // Assess
      for (const result of results) {
        expect(result.score).toBe(0);
        expect(result.delayHours).toBeGreaterThan(0);
        expect(result.reasoning).toContain(`${category} decline`);
        expect(result.reasoning).toContain(verdict);
        expect(result.factors).toEqual([{ name: 'decline_code', impact: 'negative', weight: 1 }]);
      }
    });

    it.each([
      ['a Mastercard advice code 03', { adviceCode: '03', network: 'mastercard' }],
      ['a Mastercard advice code 21', { adviceCode: '21', network: 'mastercard' }],
      ['a Visa category 1 network code', { networkCode: '41', network: 'visa' }],
      ['a terminal provider code', { declineCode: 'fraudulent' }],
    ] as const)("scores 0 despite a caller's soft_retry category when %s forbids the retry", (_what, signals) => {
      // Act
      const result = scoreRetryByRules(input({ ...signals, declineCategory: 'soft_retry' }));
      // Assess
      expect(result.score).toBe(0);
      expect(result.reasoning).toContain('never retried');
    });
  });

  describe('caller category', () => {
    it('scores a hard_customer code the caller calls soft_retry as a cautious soft decline', () => {
      // Act
      const result = scoreRetryByRules(input({ declineCode: 'expired_card', declineCategory: 'soft_retry' }));
      // Assess
      expect(result.score).toBeCloseTo(SUBCATEGORY_BASELINE.soft_retry.issuer_hold, 3);
      expect(result.delayHours).toBe(24);
      expect(result.reasoning).toContain('soft_retry decline (issuer_hold)');
    });

    it("keeps the caller's subcategory when it belongs to the caller's category", () => {
      // Act
      const result = scoreRetryByRules(input({ declineCode: 'do_not_honor', declineCategory: 'soft_retry', declineSubcategory: 'processing_error' }));
      // Assess
      expect(result.delayHours).toBe(1);
      expect(result.score).toBeCloseTo(SUBCATEGORY_BASELINE.soft_retry.processing_error, 3);
    });

    it('scores a soft code 0 when the caller classifies it as terminal', () => {
      // Act
      const result = scoreRetryByRules(input({ declineCategory: 'terminal' }));
      // Assess
      expect(result.score).toBe(0);
      expect(result.reasoning).toContain('never retried');
    });
  });

  describe('factors', () => {
    it('lists only the decline code when no other signal moves the score', () => {
      // Act
      const result = scoreRetryByRules(input({ declineCode: 'processing_error' }));
      // Assess
      expect(result.factors).toEqual([{ name: 'decline_code', impact: 'positive', weight: expect.any(Number) }]);
    });

    it.each([
      ['attempt_number', { attemptNumber: 3 }, 'negative'],
      ['payday_proximity_days', { paydayProximityDays: 1 }, 'positive'],
      ['payday_proximity_days', { paydayProximityDays: 20 }, 'negative'],
      ['hour_of_day', { hourOfDay: 6 }, 'positive'],
      ['hour_of_day', { hourOfDay: 22 }, 'negative'],
      ['is_debit', { isDebit: true }, 'negative'],
      ['is_debit', { isDebit: false }, 'positive'],
      ['subscription_months', { subscriptionMonths: 24 }, 'positive'],
      ['subscription_months', { subscriptionMonths: 0 }, 'negative'],
      ['previous_successful_payments', { previousSuccessfulPayments: 15 }, 'positive'],
      ['previous_successful_payments', { previousSuccessfulPayments: 0 }, 'negative'],
      ['success_rate_90d', { successRate90d: 0.95 }, 'positive'],
      ['success_rate_90d', { successRate90d: 0.1 }, 'negative'],
      ['anomaly_score', { anomalyScore: 0.8 }, 'negative'],
      ['amount_cents', { amountCents: 250_000 }, 'negative'],
      ['amount_cents', { amountCents: 50_000_000, currency: 'jpy' }, 'negative'],
      ['customer_lifetime_value_cents', { customerLifetimeValueCents: 500_000 }, 'positive'],
      ['days_since_failure', { daysSinceFailure: 40 }, 'negative'],
    ] as const)('lists %s as %s for %p and moves the score that way', (name, overrides, impact) => {
      // Act
      const moved = factor(overrides, name);
      const scoreWith = scoreRetryByRules(input(overrides)).score;
      const scoreWithout = scoreRetryByRules(input()).score;
      // Assess
      expect(moved).toEqual({ name, impact, weight: expect.any(Number) });
      expect(moved?.weight).toBeGreaterThan(0);
      if (impact === 'positive') expect(scoreWith).toBeGreaterThan(scoreWithout);
      else expect(scoreWith).toBeLessThan(scoreWithout);
    });

    it.each([
      ['a small amount in yen', { amountCents: 5_000, currency: 'jpy' }, 'amount_cents'],
      ['a payday of a non-balance decline', { declineCode: 'processing_error', paydayProximityDays: 0 }, 'payday_proximity_days'],
      ['the hour of a non-balance decline', { declineCode: 'processing_error', hourOfDay: 6 }, 'hour_of_day'],
      ['a mid-range payday', { paydayProximityDays: 6 }, 'payday_proximity_days'],
      ['an anomaly score of 0', { anomalyScore: 0 }, 'anomaly_score'],
    ] as const)('leaves out %s, which moves nothing', (_what, overrides, name) => {
      // Act and assess
      expect(factorNames(overrides)).not.toContain(name);
    });

    it('sorts factors by weight and names the strongest in the reasoning', () => {
      // Act
      const result = scoreRetryByRules(input({ attemptNumber: 2, successRate90d: 0.95, anomalyScore: 0.9, hourOfDay: 6 }));
      // Assess
      const weights = result.factors.map((f) => f.weight);
      expect(weights).toEqual([...weights].sort((a, b) => b - a));
      expect(result.reasoning).toMatch(/raised by a 95% success rate over 90 days/);
      expect(result.reasoning).toMatch(/lowered by an anomaly score of 0\.9/);
      expect(result.reasoning).toContain('Retry in 72 h');
      expect(result.reasoning.split('. ').length).toBeLessThanOrEqual(3);
    });
  });
});
