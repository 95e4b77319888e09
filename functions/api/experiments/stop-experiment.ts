import { StateConflictError } from '#core/errors';
import { stopExperiment as stop } from '#services/experiments';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { experimentInPath } from './experiment-lookup';
import { stopExperimentSchemas } from './schemas';
import { experimentView } from './views';

/**
 * POST /api/v1/experiments/{id}/stop: a running experiment stops; assignment freezes and everyone
 * gets the control from now on (counters stay readable). 409 unless running; an email A/B test
 * ends through its evaluate route (409).
 */
export const stopExperiment = defineOperation({ auth: 'api_key', schemas: stopExperimentSchemas }, async ({ params, principal, requestId }) => {
  const found = await experimentInPath(principal.merchantId, params.id);
  if (!('experiment' in found))
    throw new StateConflictError(`${params.id} is an email A/B test: it ends through POST /email/ab-test/${found.abTest.campaign_id}/evaluate.`);
  return { body: envelope(experimentView(await stop(principal.merchantId, params.id)), requestId, principal.merchantId) };
});
