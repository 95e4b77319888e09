import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { experimentInPath } from './experiment-lookup';
import { getExperimentSchemas } from './schemas';
import { abTestExperimentView, experimentView } from './views';

/** GET /api/v1/experiments/{id}: configuration and status (`xp_` or an email A/B test's `abt_`). Another merchant's id: 404. */
export const getExperiment = defineOperation({ auth: 'api_key', schemas: getExperimentSchemas }, async ({ params, principal, requestId }) => {
  const found = await experimentInPath(principal.merchantId, params.id);
  const view = 'experiment' in found ? experimentView(found.experiment) : abTestExperimentView(found.abTest);
  return { body: envelope(view, requestId, principal.merchantId) };
});
