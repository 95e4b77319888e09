import type { AbTestRecord } from '#core/experiments/ab-test';
import type { ExperimentRecord } from '#core/experiments/experiment';
import type { LISTED_KINDS } from './schemas';

export interface ExperimentView {
  readonly id: string;
  readonly object: 'experiment';
  readonly name: string;
  readonly kind: (typeof LISTED_KINDS)[number];
  readonly status: ExperimentRecord['status'];
  readonly variants: readonly { key: string; name: string; is_control: boolean; setting: Record<string, unknown> }[];
  readonly seed: string;
  readonly minimum_sample_per_variant: number;
  readonly source: ExperimentRecord['source'];
  readonly winner: string | null;
  readonly started_at: string;
  readonly stopped_at: string | null;
  readonly promoted_at: string | null;
}

/** The response body of an experiment (GET /experiments, /experiments/{id}, stop, promote). */
export function experimentView(experiment: ExperimentRecord): ExperimentView {
  return {
    id: experiment.id,
    object: 'experiment',
    name: experiment.name,
    kind: experiment.kind,
    status: experiment.status,
    variants: experiment.variants.map((variant, i) => ({ key: variant.key, name: variant.name, is_control: i === 0, setting: { ...variant.setting } })),
    seed: experiment.seed,
    minimum_sample_per_variant: experiment.minimum_sample_per_variant,
    source: experiment.source,
    winner: experiment.winner,
    started_at: experiment.started_at,
    stopped_at: experiment.stopped_at,
    promoted_at: experiment.promoted_at,
  };
}

/**
 * A campaign's email A/B test as an experiment of kind `email_subject`: A is the control, B the
 * treatment; a completed test is `promoted` when it named a winner, else `stopped`. It is run and
 * promoted through POST /email/ab-test/{campaign_id}/evaluate.
 */
export function abTestExperimentView(test: AbTestRecord): ExperimentView {
  const keyOf = (arm: 'A' | 'B' | null) => (arm === null ? null : arm === 'A' ? 'control' : 'treatment');
  const status = test.status === 'running' ? 'running' : test.winner_arm === null ? 'stopped' : 'promoted';
  return {
    id: test.id,
    object: 'experiment',
    name: `Email A/B test of ${test.campaign_id}`,
    kind: 'email_subject',
    status,
    variants: test.variants.map((variant, i) => ({
      key: i === 0 ? 'control' : 'treatment',
      name: variant.name,
      is_control: i === 0,
      setting: { subject: variant.subject, template_id: variant.template_id },
    })),
    seed: test.id,
    minimum_sample_per_variant: test.minimum_sample_per_arm,
    source: { type: 'email_ab_test', id: test.campaign_id },
    winner: keyOf(test.winner_arm),
    started_at: test.created_at,
    stopped_at: status === 'stopped' ? test.completed_at : null,
    promoted_at: status === 'promoted' ? test.completed_at : null,
  };
}
