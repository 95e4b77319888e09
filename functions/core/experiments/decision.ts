import type { AbArm } from './assign';
import type { AbTestMetric, AbTestRecord } from './ab-test';
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

/*
 * The statistics of an A/B test's counters, the decision rule, and the method every answer states.
 */

/** Significance level of the z-test and the posterior probability a winner needs. */
export const ALPHA = 0.05;
export const PROBABILITY_THRESHOLD = 0.95;
export const POWER = 0.8;

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
