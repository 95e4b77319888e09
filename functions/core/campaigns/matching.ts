import type { DeclineCategory } from '#core/decline-codes/types';
import type { CampaignFailure } from './failure';
import { filterFieldCount, filtersMatch, filtersNeedCustomer } from './filters';
import { triggerRuleOf } from './triggers';
import type { CampaignFilters } from './types';

/** What matching reads of a campaign: the active-campaign index holds exactly this (plus its step count). */
export interface MatchableCampaign {
  readonly id: string;
  readonly trigger: string;
  readonly filters: CampaignFilters;
  readonly activated_at: string | null;
}

/** Whether a newly failed payment satisfies the campaign's trigger (triggers.ts) and every field of its filters (filters.ts). */
export const campaignMatches = (campaign: Pick<MatchableCampaign, 'trigger' | 'filters'>, failure: CampaignFailure): boolean => {
  const rule = triggerRuleOf(campaign.trigger);
  return rule.enrollsOnFailure && rule.matches(failure) && filtersMatch(campaign.filters, failure);
};

/**
 * Specificity, the rule that picks the one campaign a payment enrolls in when several match:
 * the trigger's points (payment_failed and any_decline 0; repeated_failure, high_value_churn and
 * subscription_past_due 1; soft_decline and payment_failed_hard, a decline category, 2;
 * card_expired, a category and subcategory, 3) plus one point per filter field set
 * (amount_min and amount_max count one each).
 */
export const specificityOf = (campaign: Pick<MatchableCampaign, 'trigger' | 'filters'>): number =>
  triggerRuleOf(campaign.trigger).specificity + filterFieldCount(campaign.filters);

const activatedOrder = (c: MatchableCampaign): string => c.activated_at ?? '9999';

/**
 * Orders campaigns by who wins a payment both match: the more specific first; equal specificity,
 * the earliest activated; then the smaller id (ids are time-ordered: the older).
 */
export function compareForEnrollment(a: MatchableCampaign, b: MatchableCampaign): number {
  const bySpecificity = specificityOf(b) - specificityOf(a);
  if (bySpecificity !== 0) return bySpecificity;
  if (activatedOrder(a) !== activatedOrder(b)) return activatedOrder(a) < activatedOrder(b) ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The one campaign a newly failed payment enrolls in, or undefined: among the candidates (the
 * merchant's active campaigns) that match it, the most specific (compareForEnrollment). A payment
 * is in at most one campaign.
 *
 * @example matchingCampaign(index.campaigns, failureOf(payment, customerBefore))
 */
export function matchingCampaign<C extends MatchableCampaign>(candidates: readonly C[], failure: CampaignFailure): C | undefined {
  return candidates.filter((campaign) => campaignMatches(campaign, failure)).sort(compareForEnrollment)[0];
}

/** Whether matching the campaign needs its customer's facts (earlier failures, lifetime value). */
export const needsCustomer = (campaign: Pick<MatchableCampaign, 'trigger' | 'filters'>): boolean =>
  triggerRuleOf(campaign.trigger).needsCustomer || filtersNeedCustomer(campaign.filters);

/**
 * The decline categories a campaign can match, when its trigger or filters limit them (else
 * undefined: any): lets a read of past failures use the category index instead of every payment.
 */
export function categoriesOf(campaign: Pick<MatchableCampaign, 'trigger' | 'filters'>): readonly DeclineCategory[] | undefined {
  const byTrigger = triggerRuleOf(campaign.trigger).categories;
  const byFilter = campaign.filters.decline_category as readonly DeclineCategory[] | undefined;
  if (byTrigger === undefined) return byFilter;
  if (byFilter === undefined) return byTrigger;
  return byTrigger.filter((category) => byFilter.includes(category));
}
