import type { CampaignRecord } from '#core/campaigns/types';
import { type AbTestRecord, type AbTestVariant, firstEmailStepIndex, variantOf } from './ab-test';
import { type AbArm, assignArm } from './assign';

/*
 * Where an A/B test's winner goes (the campaign's first email step), and which variant a payment
 * sends while the test runs.
 */

/** Why a decided winner was not written into the campaign. */
export const NOT_PROMOTED_REASONS = ['campaign_archived', 'campaign_completed', 'no_email_step'] as const;
export type NotPromotedReason = (typeof NOT_PROMOTED_REASONS)[number];

/**
 * For the engine, when a payment reaches the campaign's first email step: the arm and variant
 * (subject and template) it sends while the test runs, the same on every call for that payment;
 * undefined once the test is completed (the campaign's step then holds the winner). Report the
 * assignment with recordAbTestEvent(…, arm, 'assigned', test.id).
 */
export function abTestVariantFor(test: AbTestRecord, paymentId: string): { arm: AbArm; variant: AbTestVariant } | undefined {
  if (test.status !== 'running') return undefined;
  const arm = assignArm(test.id, paymentId, test.traffic_split);
  return { arm, variant: variantOf(test, arm) };
}

/**
 * Whether the campaign can take the winner, and where: the first email step of a draft, active or
 * paused campaign. Promotion changes that step's template and subject only, never the trigger,
 * filters or number of steps, so it is allowed while active (enrollments in flight send the
 * winner from their next email on); an archived or completed campaign sends nothing more.
 */
export function promotionTarget(campaign: Pick<CampaignRecord, 'status' | 'steps'>): { step_index: number } | { refused: NotPromotedReason } {
  if (campaign.status === 'archived') return { refused: 'campaign_archived' };
  if (campaign.status === 'completed') return { refused: 'campaign_completed' };
  const index = firstEmailStepIndex(campaign);
  return index === undefined ? { refused: 'no_email_step' } : { step_index: index };
}

/** The campaign after promotion: step `index` takes the variant's template_id and subject (version bumped). */
export function promoteVariant(campaign: CampaignRecord, index: number, variant: AbTestVariant, now: Date): CampaignRecord {
  return {
    ...campaign,
    steps: campaign.steps.map((step, i) => (i === index ? { ...step, template_id: variant.template_id, subject: variant.subject } : step)),
    updated_at: now.toISOString(),
    version: campaign.version + 1,
  };
}
