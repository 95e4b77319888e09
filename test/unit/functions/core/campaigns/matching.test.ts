import { failureOf } from '#core/campaigns/failure';
import { campaignFailure } from '#test/fixtures/campaigns';
import { type MatchableCampaign, campaignMatches, categoriesOf, matchingCampaign, specificityOf } from '#core/campaigns/matching';
import type { PaymentRecord } from '#core/payments';

const failure = campaignFailure;

const campaign = (id: string, trigger: string, filters: MatchableCampaign['filters'] = {}, activated_at = '2026-01-01T00:00:00.000Z'): MatchableCampaign => ({
  id,
  trigger,
  filters,
  activated_at,
});

const generic = campaign('camp_generic', 'payment_failed');
const anyDecline = campaign('camp_any', 'any_decline', {}, '2025-12-01T00:00:00.000Z');
const soft = campaign('camp_soft', 'soft_decline');
const softUsd = campaign('camp_soft_usd', 'soft_decline', { currency: ['usd'] });
const softStripeUsd = campaign('camp_soft_stripe_usd', 'soft_decline', { currency: ['usd'], psp: ['stripe'] });
const hard = campaign('camp_hard', 'payment_failed_hard');
const expired = campaign('camp_expired', 'card_expired');
const repeat = campaign('camp_repeat', 'repeated_failure');
const genericWithCode = campaign('camp_code', 'payment_failed', { decline_code: ['insufficient_funds'], decline_category: ['soft_retry'] });
const expiring = campaign('camp_expiring', 'card_expiring');

describe('matchingCampaign', () => {
  it.each([
    ['no candidates', [], failure(), undefined],
    ['only a generic campaign', [generic], failure(), 'camp_generic'],
    ['a category trigger over payment_failed', [generic, soft], failure(), 'camp_soft'],
    ['a category trigger over any_decline', [anyDecline, soft], failure(), 'camp_soft'],
    ['a filter field over the bare category trigger', [soft, softUsd], failure(), 'camp_soft_usd'],
    ['two filter fields over one', [softUsd, softStripeUsd, soft], failure(), 'camp_soft_stripe_usd'],
    ['a filtered campaign that does not match loses to a generic one', [softUsd, generic], failure({ currency: 'eur' }), 'camp_generic'],
    [
      'a subcategory trigger over the hard category',
      [hard, expired, generic],
      failure({ decline_category: 'hard_customer', decline_subcategory: 'expired' }),
      'camp_expired',
    ],
    ['the hard trigger for a stolen card', [hard, expired, soft], failure({ decline_category: 'hard_customer', decline_subcategory: 'stolen' }), 'camp_hard'],
    ['a condition trigger over a generic one', [generic, repeat], failure({ earlier_failed_count: 2 }), 'camp_repeat'],
    ['a category trigger over a condition trigger', [repeat, soft], failure({ earlier_failed_count: 2 }), 'camp_soft'],
    ['generic with two filter fields over a category trigger', [soft, genericWithCode], failure(), 'camp_code'],
    ['nothing for a trigger that never enrolls on failure', [expiring], failure(), undefined],
    ['nothing when no candidate matches', [hard, expired], failure(), undefined],
    ['the earliest activated on equal specificity', [generic, anyDecline], failure(), 'camp_any'],
  ] as const)('picks %s', (_name, candidates, f, expected) => {
    // Act
    const chosen = matchingCampaign(candidates, f);
    // Assess
    expect(chosen?.id).toBe(expected);
  });

  it('breaks a tie of specificity and activation by the smaller id', () => {
    // Prepare
    const a = campaign('camp_01A', 'soft_decline');
    const b = campaign('camp_01B', 'soft_decline');
    // Act and assess
    expect(matchingCampaign([b, a], failure())?.id).toBe('camp_01A');
    expect(matchingCampaign([a, b], failure())?.id).toBe('camp_01A');
  });
});

describe('specificityOf, campaignMatches and categoriesOf', () => {
  it('adds one point per filter field to the trigger points', () => {
    // Act and assess
    expect(specificityOf(generic)).toBe(0);
    expect(specificityOf(soft)).toBe(2);
    expect(specificityOf(softStripeUsd)).toBe(4);
    expect(specificityOf(expired)).toBe(3);
  });

  it('needs both the trigger and the filters to match', () => {
    // Act and assess
    expect(campaignMatches(softUsd, failure())).toBe(true);
    expect(campaignMatches(softUsd, failure({ currency: 'eur' }))).toBe(false);
    expect(campaignMatches(softUsd, failure({ decline_category: 'unknown' }))).toBe(false);
  });

  it('limits the categories a read of past failures needs by trigger and filter', () => {
    // Act and assess
    expect(categoriesOf(generic)).toBeUndefined();
    expect(categoriesOf(soft)).toEqual(['soft_retry']);
    expect(categoriesOf(campaign('c', 'payment_failed_hard', { decline_category: ['terminal', 'unknown'] }))).toEqual(['terminal']);
    expect(categoriesOf(campaign('c', 'payment_failed', { decline_category: ['unknown'] }))).toEqual(['unknown']);
  });
});

describe('failureOf', () => {
  const payment = {
    amount: 1500,
    currency: 'eur',
    psp: 'adyen',
    decline_code: 'Refused',
    decline_category: 'unknown',
    decline_subcategory: 'generic',
    subscription_id: 'sub_9',
  } as PaymentRecord;

  it("takes the payment's facts and the customer's as they were before it", () => {
    // Act
    const before = failureOf(payment, { failed_payments: 2, lifetime_value_by_currency: { eur: 100 } });
    const after = failureOf(payment, { failed_payments: 3, lifetime_value_by_currency: { eur: 100 } }, { customerIncludesPayment: true });
    // Assess
    expect(before).toEqual({
      amount: 1500,
      currency: 'eur',
      psp: 'adyen',
      decline_code: 'Refused',
      decline_category: 'unknown',
      decline_subcategory: 'generic',
      subscription_id: 'sub_9',
      earlier_failed_count: 2,
      lifetime_value_by_currency: { eur: 100 },
    });
    expect(after.earlier_failed_count).toBe(2);
  });

  it('takes a payment without a customer as a first failure with no lifetime value', () => {
    // Act and assess
    expect(failureOf(payment)).toMatchObject({ earlier_failed_count: 0, lifetime_value_by_currency: {} });
  });
});
