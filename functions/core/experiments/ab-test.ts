import type { CampaignRecord, CampaignStatus } from '#core/campaigns/types';
import { ResourceNotFoundError, StateConflictError, ValidationError } from '#core/errors';
import { idBody, timeOrderedId } from '#core/ids';
import { type AbArm, AB_ARMS, assignArm } from './assign';
import {
  type ArmCounts,
  BETA_PRIOR,
  type DifferenceInterval,
  detectableRate,
  differenceInterval,
  probabilityBBeatsA,
  rateOf,
  SRM_ALPHA,
  type SrmResult,
  sampleRatioMismatch,
  twoProportionZTest,
  type ZTestResult,
} from './stats';

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
/** Significance level of the z-test and the posterior probability a winner needs. */
export const ALPHA = 0.05;
export const PROBABILITY_THRESHOLD = 0.95;
export const POWER = 0.8;

export interface AbTestVariant {
  readonly name: string;
  readonly subject: string;
  readonly template_id: string;
}

/** Why an evaluation named no winner, or `significant` when it did. */
export const DECISION_REASONS = ['significant', 'insufficient_sample', 'srm', 'not_significant'] as const;
export type DecisionReason = (typeof DECISION_REASONS)[number];

export interface AbTestStatistics {
  readonly metric: AbTestMetric;
  readonly arms: Readonly<Record<AbArm, ArmCounts & { readonly rate: number | null }>>;
  /** rate B − rate A. */
  readonly difference: number | null;
  /** (rate B − rate A) / rate A. */
  readonly relative_lift: number | null;
  readonly z_test: ZTestResult;
  readonly confidence_interval: DifferenceInterval | null;
  readonly probability_b_beats_a: number;
  readonly probability_a_beats_b: number;
  readonly srm: SrmResult & { readonly expected_split: number; readonly observed_split: number | null };
  readonly minimum_sample_per_arm: number;
  readonly sample_reached: boolean;
  readonly winner_arm: AbArm | null;
  readonly reason: DecisionReason;
}

/** Why a decided winner was not written into the campaign. */
export const NOT_PROMOTED_REASONS = ['campaign_archived', 'campaign_completed', 'no_email_step'] as const;
export type NotPromotedReason = (typeof NOT_PROMOTED_REASONS)[number];

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

/** The counts the metric compares: recovery over assigned payments, click over sent emails. */
export function armCountsOf(test: Pick<AbTestRecord, 'counters' | 'metric'>, arm: AbArm): ArmCounts {
  const counters = test.counters[arm];
  return test.metric === 'click' ? { n: counters.sent, successes: counters.clicked } : { n: counters.assigned, successes: counters.recovered };
}

/**
 * The statistics of the test's counters and the decision rule: a winner only when both arms have
 * the minimum sample, no sample ratio mismatch (p < 0.001 on assigned payments against the
 * split), the z-test's p < 0.05, and P(B beats A) ≥ 0.95 (B) or ≤ 0.05 (A). The first rule that
 * fails is the reason, in that order.
 */
export function computeStatistics(test: Pick<AbTestRecord, 'counters' | 'metric' | 'traffic_split' | 'minimum_sample_per_arm'>): AbTestStatistics {
  const a = armCountsOf(test, 'A');
  const b = armCountsOf(test, 'B');
  const rateA = rateOf(a);
  const rateB = rateOf(b);
  const zTest = twoProportionZTest(a, b);
  const probabilityB = probabilityBBeatsA(a, b);
  const assignedA = test.counters.A.assigned;
  const assignedB = test.counters.B.assigned;
  const srm = sampleRatioMismatch(assignedA, assignedB, test.traffic_split, SRM_ALPHA);
  const sampleReached = a.n >= test.minimum_sample_per_arm && b.n >= test.minimum_sample_per_arm;
  let winner: AbArm | null = null;
  let reason: DecisionReason = 'not_significant';
  if (!sampleReached) reason = 'insufficient_sample';
  else if (srm.detected) reason = 'srm';
  else if (zTest.p_value !== null && zTest.p_value < ALPHA && probabilityB >= PROBABILITY_THRESHOLD) winner = 'B';
  else if (zTest.p_value !== null && zTest.p_value < ALPHA && probabilityB <= 1 - PROBABILITY_THRESHOLD) winner = 'A';
  if (winner !== null) reason = 'significant';
  return {
    metric: test.metric,
    arms: { A: { ...a, rate: rateA }, B: { ...b, rate: rateB } },
    difference: rateA === null || rateB === null ? null : rateB - rateA,
    relative_lift: rateA === null || rateB === null || rateA === 0 ? null : (rateB - rateA) / rateA,
    z_test: zTest,
    confidence_interval: differenceInterval(a, b),
    probability_b_beats_a: probabilityB,
    probability_a_beats_b: 1 - probabilityB,
    srm: {
      ...srm,
      expected_split: test.traffic_split,
      observed_split: assignedA + assignedB === 0 ? null : assignedA / (assignedA + assignedB),
    },
    minimum_sample_per_arm: test.minimum_sample_per_arm,
    sample_reached: sampleReached,
    winner_arm: winner,
    reason,
  };
}

/** How an evaluation decides, stated in every answer. */
export interface AbTestMethod {
  readonly metric: AbTestMetric;
  readonly rate: string;
  readonly assignment: string;
  readonly frequentist_test: string;
  readonly confidence_interval: string;
  readonly alpha: number;
  readonly bayesian_test: string;
  readonly prior: string;
  readonly probability_threshold: number;
  readonly srm_test: string;
  readonly srm_alpha: number;
  readonly minimum_sample_per_arm: number;
  /** What the minimum sample detects at 80% power and α 0.05, from A's current rate (40% when A has none yet). */
  readonly power_at_minimum_sample: { readonly baseline_rate: number; readonly detectable_rate: number | null; readonly power: number };
  readonly decision_rule: string;
  readonly applies_to: string;
}

const DEFAULT_BASELINE = 0.4;

export function methodOf(test: Pick<AbTestRecord, 'metric' | 'minimum_sample_per_arm'>, statistics: AbTestStatistics): AbTestMethod {
  const observed = statistics.arms.A.rate;
  const baseline = observed === null || observed === 0 || observed === 1 ? DEFAULT_BASELINE : observed;
  return {
    metric: test.metric,
    rate: test.metric === 'click' ? 'clicked / sent' : 'recovered / assigned',
    assignment: 'GrowthBook FNV-1a 32-bit hash v2 of test id + payment id; bucket below traffic_split: A, else B',
    frequentist_test: 'two-proportion z-test, pooled variance, two-sided',
    confidence_interval: '95% Wald interval of rate B - rate A, unpooled variance',
    alpha: ALPHA,
    bayesian_test: 'Beta-Binomial posterior probability that B beats A, exact (Evan Miller closed form, log space)',
    prior: `Beta(${BETA_PRIOR.alpha}, ${BETA_PRIOR.beta}) on each arm`,
    probability_threshold: PROBABILITY_THRESHOLD,
    srm_test: 'chi-square goodness of fit (1 df) of assigned payments against traffic_split',
    srm_alpha: SRM_ALPHA,
    minimum_sample_per_arm: test.minimum_sample_per_arm,
    power_at_minimum_sample: { baseline_rate: baseline, detectable_rate: detectableRate(baseline, test.minimum_sample_per_arm, ALPHA, POWER), power: POWER },
    decision_rule: `winner only when each arm has at least minimum_sample_per_arm, no SRM (p >= ${SRM_ALPHA}), p < ${ALPHA} and P(B beats A) >= ${PROBABILITY_THRESHOLD} (B) or <= ${1 - PROBABILITY_THRESHOLD} (A)`,
    applies_to: "the campaign's first email step",
  };
}

/** The variant of an arm: A is the first. */
export const variantOf = (test: Pick<AbTestRecord, 'variants'>, arm: AbArm): AbTestVariant => test.variants[AB_ARMS.indexOf(arm)] as AbTestVariant;

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
