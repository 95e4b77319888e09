import { A_TRIGGER_TYPES, B_TRIGGERS, canonicalTrigger, TRIGGER_RULES, triggerRuleOf, triggerTypeOf } from '#core/campaigns/triggers';
import { campaignFailure } from '#test/fixtures/campaigns';

const failure = campaignFailure;

describe('canonicalTrigger and triggerTypeOf', () => {
  it.each([
    ['payment_failed', 'payment_failed'],
    ['payment_failed_soft', 'soft_decline'],
    ['payment_failed_hard', 'payment_failed_hard'],
    ['subscription_past_due', 'subscription_past_due'],
    ['card_expiring', 'card_expiring'],
  ] as const)("maps A's %s to the canonical %s and back", (a, canonical) => {
    // Act and assess
    expect(canonicalTrigger(a)).toBe(canonical);
    expect(triggerTypeOf(canonical)).toBe(a);
  });

  it.each(['card_expired', 'manual', 'pre_dunning', 'repeated_failure', 'high_value_churn', 'any_decline'] as const)(
    "keeps B's %s as it is and answers a null trigger_type for it",
    (b) => {
      // Act and assess
      expect(canonicalTrigger(b)).toBe(b);
      expect(triggerTypeOf(b)).toBeNull();
    },
  );

  it("has a rule for every A and B value's canonical trigger", () => {
    // Act and assess
    for (const value of [...A_TRIGGER_TYPES, ...B_TRIGGERS]) expect(TRIGGER_RULES[canonicalTrigger(value)]).toBeDefined();
  });
});

describe('trigger rules', () => {
  it.each([
    ['payment_failed', failure({ decline_category: 'terminal', decline_subcategory: 'fraud' }), true],
    ['any_decline', failure({ decline_category: 'unknown', decline_subcategory: 'generic' }), true],
    ['soft_decline', failure(), true],
    ['soft_decline', failure({ decline_category: 'hard_customer', decline_subcategory: 'expired' }), false],
    ['payment_failed_hard', failure({ decline_category: 'hard_customer', decline_subcategory: 'stolen' }), true],
    ['payment_failed_hard', failure({ decline_category: 'terminal', decline_subcategory: 'fraud' }), true],
    ['payment_failed_hard', failure(), false],
    ['card_expired', failure({ decline_category: 'hard_customer', decline_subcategory: 'expired' }), true],
    ['card_expired', failure({ decline_category: 'hard_customer', decline_subcategory: 'closed' }), false],
    ['repeated_failure', failure({ earlier_failed_count: 1 }), true],
    ['repeated_failure', failure({ earlier_failed_count: 0 }), false],
    ['high_value_churn', failure({ lifetime_value_by_currency: { usd: 50_000 } }), true],
    ['high_value_churn', failure({ amount: 20_000 }), true],
    ['high_value_churn', failure({ lifetime_value_by_currency: { eur: 90_000 } }), false],
    ['high_value_churn', failure({ currency: 'jpy', amount: 200 }), true],
    ['subscription_past_due', failure({ subscription_id: 'sub_1' }), true],
    ['subscription_past_due', failure(), false],
    ['card_expiring', failure(), false],
    ['pre_dunning', failure(), false],
    ['manual', failure(), false],
  ] as const)('decides that %s matches the failure: %s -> %s', (trigger, f, expected) => {
    // Act and assess
    expect(TRIGGER_RULES[trigger].matches(f)).toBe(expected);
  });

  it('enrolls nothing through a trigger no longer known', () => {
    // Act
    const rule = triggerRuleOf('gone');
    // Assess
    expect(rule.enrollsOnFailure).toBe(false);
    expect(rule.matches(failure())).toBe(false);
  });
});
