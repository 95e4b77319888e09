import type { AbTestRecord } from '#core/experiments/ab-test';
import { variantKeyAt } from '#core/experiments/experiment';
import { computeResults } from '#core/experiments/results';
import { experimentResults } from '#services/experiments';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { experimentInPath } from './experiment-lookup';
import { getExperimentResultsSchemas } from './schemas';

/** An email A/B test's counters through the same results (exposures: payments assigned; conversions: recovered). */
function abTestResults(test: AbTestRecord) {
  const experiment = {
    id: test.id,
    merchant_id: test.merchant_id,
    name: test.campaign_id,
    kind: 'campaign' as const,
    variants: test.variants.map((_, i) => ({ key: variantKeyAt(i), name: variantKeyAt(i), setting: {} })),
    seed: test.id,
    status: test.status === 'running' ? ('running' as const) : test.winner_arm === null ? ('stopped' as const) : ('promoted' as const),
    minimum_sample_per_variant: test.minimum_sample_per_arm,
    source: { type: 'email_ab_test' as const, id: test.campaign_id },
    winner: null,
    started_at: test.created_at,
    stopped_at: null,
    promoted_at: null,
  };
  const counts = {
    control: { exposures: test.counters.A.assigned, conversions: test.counters.A.recovered },
    treatment: { exposures: test.counters.B.assigned, conversions: test.counters.B.recovered },
  };
  return computeResults(experiment, counts);
}

/**
 * GET /api/v1/experiments/{id}/results: per variant exposures, conversions, rate, its 95% Wilson
 * interval and the posterior probability to beat the control; the SRM check; the winner once every
 * variant has the minimum sample. Reads one rollup item per variant, never the assignments.
 */
export const getExperimentResults = defineOperation({ auth: 'api_key', schemas: getExperimentResultsSchemas }, async ({ params, principal, requestId }) => {
  const found = await experimentInPath(principal.merchantId, params.id);
  const results = 'experiment' in found ? await experimentResults(found.experiment) : abTestResults(found.abTest);
  return { body: envelope(results, requestId, principal.merchantId) };
});
