/** How email A/B tests leave the API, typed against ab-test-schemas.ts. */
import type * as z from '#shared/zod';
import { type AbTestEvaluation as Evaluation, type AbTestRecord, variantOf } from '#core/experiments/ab-test';
import { computeStatistics, methodOf } from '#core/experiments/decision';
import { AB_ARMS } from '#core/experiments/assign';
import type { AbTest, AbTestEvaluation } from './ab-test-schemas';

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

export function abTestEvaluationView(test: AbTestRecord, evaluation: Evaluation): z.output<typeof AbTestEvaluation> {
  const variant = evaluation.winner_arm === null ? undefined : variantOf(test, evaluation.winner_arm);
  return {
    evaluated_at: evaluation.evaluated_at,
    winner: evaluation.winner,
    winner_arm: evaluation.winner_arm,
    reason: evaluation.reason,
    promoted: evaluation.promoted,
    promotion:
      evaluation.promoted && evaluation.step_index !== null && variant !== undefined
        ? { campaign_id: test.campaign_id, step_index: evaluation.step_index, template_id: variant.template_id, subject: variant.subject }
        : null,
    not_promoted_reason: evaluation.not_promoted_reason,
    statistics: evaluation.statistics,
  };
}

/** The test, each variant with its counters and rates, and the statistics and method of its counters now. */
export function abTestView(test: AbTestRecord): z.output<typeof AbTest> {
  const statistics = computeStatistics(test);
  return {
    id: test.id,
    campaign_id: test.campaign_id,
    status: test.status,
    traffic_split: test.traffic_split,
    metric: test.metric,
    minimum_sample_per_arm: test.minimum_sample_per_arm,
    applies_to: 'first_email_step',
    variants: AB_ARMS.map((arm) => {
      const variant = variantOf(test, arm);
      const counters = test.counters[arm];
      return {
        arm,
        name: variant.name,
        subject: variant.subject,
        template_id: variant.template_id,
        ...counters,
        recovery_rate: ratio(counters.recovered, counters.assigned),
        click_rate: ratio(counters.clicked, counters.sent),
      };
    }),
    statistics,
    method: methodOf(test, statistics),
    last_evaluation: test.last_evaluation === null ? null : abTestEvaluationView(test, test.last_evaluation),
    winner: test.winner,
    winner_arm: test.winner_arm,
    created_at: test.created_at,
    evaluated_at: test.evaluated_at,
    completed_at: test.completed_at,
  };
}
