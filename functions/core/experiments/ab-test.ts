import type { CampaignRecord, CampaignStatus } from '#core/campaigns/types';
import { ResourceNotFoundError, StateConflictError, ValidationError } from '#core/errors';
import { idBody, timeOrderedId } from '#core/ids';
import { type AbArm, AB_ARMS } from './assign';
import type { AbTestStatistics, DecisionReason } from './decision';
import type { NotPromotedReason } from './promotion';

/**
 * An email A/B test (spec "Templates and email": POST /email/ab-test): two variants (subject and
 * template) of a campaign's first email step, payments split between them by a hash (assign.ts),
 * per-arm counters the engine adds to, and an evaluation that promotes the winner into the
 * campaign only when the decision rule holds. One test per campaign.
 */
export const AB_TEST_STATUSES = ['running', 'completed'] as const;
export type AbTestStatus = (typeof AB_TEST_STATUSES)[number];

/** `recovery`: recovered / assigned (every payment assigned, sent or not). `click`: clicked / sent. */
export const AB_TEST_METRICS = ['recovery', 'click'] as const;
export type AbTestMetric = (typeof AB_TEST_METRICS)[number];

/** What the engine reports per arm (recordAbTestEvent). */
export const AB_TEST_EVENTS = ['assigned', 'sent', 'clicked', 'recovered'] as const;
export type AbTestEvent = (typeof AB_TEST_EVENTS)[number];
export type AbArmCounters = Readonly<Record<AbTestEvent, number>>;
export const NO_COUNTS: AbArmCounters = { assigned: 0, sent: 0, clicked: 0, recovered: 0 };

export const AB_TEST_DEFAULTS = { traffic_split: 0.5, metric: 'recovery', minimum_sample_per_arm: 100 } as const;
export const TRAFFIC_SPLIT_RANGE = { min: 0.05, max: 0.95 } as const;
export const MINIMUM_SAMPLE_RANGE = { min: 30, max: 1_000_000 } as const;

export interface AbTestVariant {
  readonly name: string;
  readonly subject: string;
  readonly template_id: string;
}

export interface AbTestEvaluation {
  readonly evaluated_at: string;
  readonly winner: string | null;
  readonly winner_arm: AbArm | null;
  readonly reason: DecisionReason;
  readonly promoted: boolean;
  readonly not_promoted_reason: NotPromotedReason | null;
  /** The campaign step (0-based) that took the winner's template and subject, when promoted. */
  readonly step_index: number | null;
  readonly statistics: AbTestStatistics;
}

export interface AbTestRecord {
  /** `abt_<time-ordered body>`. */
  readonly id: string;
  readonly merchant_id: string;
  readonly campaign_id: string;
  readonly status: AbTestStatus;
  /** The share of payments assigned to A (the first variant). */
  readonly traffic_split: number;
  readonly metric: AbTestMetric;
  readonly minimum_sample_per_arm: number;
  readonly variants: readonly [AbTestVariant, AbTestVariant];
  /** Kept with UpdateItem ADD (recordAbTestEvent); a whole-item write never follows creation. */
  readonly counters: Readonly<Record<AbArm, AbArmCounters>>;
  readonly last_evaluation: AbTestEvaluation | null;
  /** The promoted variant's name once completed. */
  readonly winner: string | null;
  readonly winner_arm: AbArm | null;
  readonly created_at: string;
  readonly evaluated_at: string | null;
  readonly completed_at: string | null;
}

export const abTestIdFor = (body: string): string => `abt_${body}`;
export const abTestBodyOf = (id: string): string | undefined => idBody(id, 'abt');

export interface AbTestFields {
  readonly traffic_split?: number | undefined;
  readonly metric?: AbTestMetric | undefined;
  readonly minimum_sample_per_arm?: number | undefined;
  readonly variants: readonly [AbTestVariant, AbTestVariant];
}

/** A new running test with zero counters. */
export function newAbTest(merchantId: string, campaignId: string, fields: AbTestFields, now: Date): AbTestRecord {
  return {
    id: abTestIdFor(timeOrderedId(now)),
    merchant_id: merchantId,
    campaign_id: campaignId,
    status: 'running',
    traffic_split: fields.traffic_split ?? AB_TEST_DEFAULTS.traffic_split,
    metric: fields.metric ?? AB_TEST_DEFAULTS.metric,
    minimum_sample_per_arm: fields.minimum_sample_per_arm ?? AB_TEST_DEFAULTS.minimum_sample_per_arm,
    variants: fields.variants,
    counters: { A: NO_COUNTS, B: NO_COUNTS },
    last_evaluation: null,
    winner: null,
    winner_arm: null,
    created_at: now.toISOString(),
    evaluated_at: null,
    completed_at: null,
  };
}

/** Campaign statuses an A/B test may be created on, and promoted into: it still sends. */
export const TESTABLE_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['draft', 'active', 'paused'];

/** The step an A/B test applies to: the campaign's first email step (index), or undefined when it has none. */
export const firstEmailStepIndex = (campaign: Pick<CampaignRecord, 'steps'>): number | undefined => {
  const index = campaign.steps.findIndex((step) => step.action === 'email');
  return index === -1 ? undefined : index;
};

/** The variant of an arm: A is the first. */
export const variantOf = (test: Pick<AbTestRecord, 'variants'>, arm: AbArm): AbTestVariant => test.variants[AB_ARMS.indexOf(arm)] as AbTestVariant;

/**
 * Whether a new test may start on the campaign: the merchant's (404 naming campaign_id
 * otherwise, another merchant's included), still sending (409 for archived or completed), with an
 * email step to test (422), and no running test on it (409). A completed test may be replaced.
 */
export function refuseNewAbTest(
  campaignId: string,
  campaign: Pick<CampaignRecord, 'status' | 'steps'> | undefined,
  existing: Pick<AbTestRecord, 'id' | 'status'> | undefined,
): void {
  if (campaign === undefined) throw new ResourceNotFoundError(`No campaign ${campaignId}.`, { param: 'campaign_id' });
  if (!TESTABLE_CAMPAIGN_STATUSES.includes(campaign.status)) {
    throw new StateConflictError(`Campaign ${campaignId} is ${campaign.status}: an A/B test needs a draft, active or paused campaign.`);
  }
  if (firstEmailStepIndex(campaign) === undefined) {
    throw new ValidationError(`Campaign ${campaignId} has no email step: an A/B test applies to the first email step.`, { param: 'campaign_id' });
  }
  if (existing?.status === 'running') throw new StateConflictError(`Campaign ${campaignId} already has a running A/B test (${existing.id}).`);
}
