import { PROBABILITY_THRESHOLD } from './decision';
import { type ExperimentRecord, type ExperimentVariant, variantWeights } from './experiment';
import { type DifferenceInterval, probabilityBBeatsA, rateOf, SRM_ALPHA, type SrmResult, sampleRatioMismatchOf, wilsonInterval } from './stats';

/** A variant's counters (rollup items written by the stream consumer): customers exposed, and of them converted (a payment recovered). */
export interface VariantCounts {
  readonly exposures: number;
  readonly conversions: number;
}

export interface VariantResult {
  readonly key: string;
  readonly name: string;
  readonly is_control: boolean;
  readonly exposures: number;
  readonly conversions: number;
  /** conversions / exposures; null with no exposure. */
  readonly rate: number | null;
  /** 95% Wilson score interval of the rate. */
  readonly confidence_interval: DifferenceInterval | null;
  /** Posterior P(this variant's rate > the control's), Beta(1, 1) priors; null for the control. */
  readonly probability_to_beat_control: number | null;
  /** (rate − control rate) / control rate; null when undefined. */
  readonly relative_lift: number | null;
  readonly minimum_sample_reached: boolean;
}

export const RESULT_REASONS = ['significant', 'insufficient_sample', 'srm', 'not_significant'] as const;
export type ResultReason = (typeof RESULT_REASONS)[number];

export interface ExperimentResults {
  readonly experiment_id: string;
  readonly status: ExperimentRecord['status'];
  readonly variants: readonly VariantResult[];
  readonly srm: SrmResult & { readonly expected_shares: readonly number[] };
  readonly minimum_sample_per_variant: number;
  readonly minimum_sample_reached: boolean;
  /** The variant that wins (key), or null; never before every variant has the minimum sample. */
  readonly winner: string | null;
  readonly reason: ResultReason;
  readonly method: {
    readonly assignment: string;
    readonly confidence_interval: string;
    readonly bayesian_test: string;
    readonly srm_test: string;
    readonly srm_alpha: number;
    readonly probability_threshold: number;
    readonly decision_rule: string;
  };
}

const NO_COUNTS: VariantCounts = { exposures: 0, conversions: 0 };

/**
 * The results of an experiment's counters: per variant the rate, its Wilson interval and the
 * posterior probability to beat the control; a sample-ratio-mismatch χ² over all variants; and the
 * decision: a winner only once every variant has the minimum sample and no SRM (p ≥ 0.001), then
 * the treatment with the highest P(beats control) when it is ≥ 0.95, or the control when every
 * treatment's is ≤ 0.05. The first rule that fails is the reason.
 */
export function computeResults(experiment: ExperimentRecord, counts: Readonly<Record<string, VariantCounts>>): ExperimentResults {
  const control = experiment.variants[0] as ExperimentVariant;
  const controlCounts = counts[control.key] ?? NO_COUNTS;
  const arm = (c: VariantCounts) => ({ n: c.exposures, successes: c.conversions });
  const controlRate = rateOf(arm(controlCounts));
  const variants: VariantResult[] = experiment.variants.map((variant, i) => {
    const c = counts[variant.key] ?? NO_COUNTS;
    const rate = rateOf(arm(c));
    return {
      key: variant.key,
      name: variant.name,
      is_control: i === 0,
      exposures: c.exposures,
      conversions: c.conversions,
      rate,
      confidence_interval: wilsonInterval(arm(c)),
      probability_to_beat_control: i === 0 ? null : probabilityBBeatsA(arm(controlCounts), arm(c)),
      relative_lift: i === 0 || rate === null || controlRate === null || controlRate === 0 ? null : (rate - controlRate) / controlRate,
      minimum_sample_reached: c.exposures >= experiment.minimum_sample_per_variant,
    };
  });
  const weights = variantWeights(experiment);
  const srm = sampleRatioMismatchOf(
    variants.map((v) => v.exposures),
    weights,
  );
  const sampleReached = variants.every((v) => v.minimum_sample_reached);
  const treatments = variants.filter((v) => !v.is_control);
  const best = treatments.reduce<VariantResult | undefined>(
    (top, v) => ((v.probability_to_beat_control ?? 0) > (top?.probability_to_beat_control ?? -1) ? v : top),
    undefined,
  );
  let winner: string | null = null;
  let reason: ResultReason = 'not_significant';
  if (!sampleReached) reason = 'insufficient_sample';
  else if (srm.detected) reason = 'srm';
  else if (best !== undefined && (best.probability_to_beat_control ?? 0) >= PROBABILITY_THRESHOLD) winner = best.key;
  else if (treatments.every((v) => (v.probability_to_beat_control ?? 1) <= 1 - PROBABILITY_THRESHOLD)) winner = control.key;
  if (winner !== null) reason = 'significant';
  return {
    experiment_id: experiment.id,
    status: experiment.status,
    variants,
    srm: { ...srm, expected_shares: weights },
    minimum_sample_per_variant: experiment.minimum_sample_per_variant,
    minimum_sample_reached: sampleReached,
    winner,
    reason,
    method: {
      assignment: 'GrowthBook FNV-1a 32-bit hash v2 of the experiment seed + customer id, equal ranges per variant',
      confidence_interval: '95% Wilson score interval of each variant rate (conversions / exposures)',
      bayesian_test: 'Beta-Binomial posterior probability that the variant beats the control, Beta(1, 1) priors, exact closed form',
      srm_test: 'Pearson chi-square goodness of fit of exposures against equal shares, k - 1 df',
      srm_alpha: SRM_ALPHA,
      probability_threshold: PROBABILITY_THRESHOLD,
      decision_rule: `winner only when every variant has minimum_sample_per_variant exposures and no SRM (p >= ${SRM_ALPHA}); then the treatment with P(beats control) >= ${PROBABILITY_THRESHOLD}, or the control when every treatment has P <= ${1 - PROBABILITY_THRESHOLD}`,
    },
  };
}
