import { methodOf } from '#core/experiments/decision';
import { evaluateAbTest } from '#data/ab-test-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { evaluateEmailAbTestSchemas } from './ab-test-schemas';
import { abTestEvaluationView, abTestView } from './ab-test-views';

/**
 * POST /api/v1/email/ab-test/{campaign_id}/evaluate: the statistics of the counters now, the
 * method, and the decision. A winner (minimum sample, no SRM, p < 0.05, P(B beats A) >= 0.95 or
 * <= 0.05) is promoted into the campaign's first email step and completes the test, in one
 * transaction; a campaign that cannot take it (archived, completed, no email step) is named in
 * `not_promoted_reason` and the test keeps running. No winner: `winner: null` and the reason.
 * 404 without a test; 409 once completed.
 */
export const evaluateEmailAbTest = defineOperation({ auth: 'api_key', schemas: evaluateEmailAbTestSchemas }, async ({ params, principal, requestId }) => {
  const { test, evaluation } = await evaluateAbTest(principal.merchantId, params.campaign_id);
  const data = { ...abTestEvaluationView(test, evaluation), method: methodOf(test, evaluation.statistics), test: abTestView(test) };
  return { body: envelope(data, requestId, principal.merchantId) };
});
