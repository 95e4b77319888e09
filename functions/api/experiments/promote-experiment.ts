import { StateConflictError } from '#core/errors';
import { promoteExperiment as promote } from '#services/experiments';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { experimentInPath } from './experiment-lookup';
import { promoteExperimentSchemas } from './schemas';
import { experimentView } from './views';

/**
 * POST /api/v1/experiments/{id}/promote: the winner's setting becomes the merchant's default for
 * the experiment's kind (the retry policy reads retry timing at once) and the experiment ends
 * `promoted`. 409 until every variant has the minimum sample and the results name a winner,
 * unless `force=true` (query or body). An email A/B test is promoted by its evaluate route: 409.
 */
export const promoteExperiment = defineOperation(
  { auth: 'api_key', schemas: promoteExperimentSchemas },
  async ({ params, principal, query, body, requestId }) => {
    const merchantId = principal.merchantId;
    const found = await experimentInPath(merchantId, params.id);
    if (!('experiment' in found))
      throw new StateConflictError(`${params.id} is an email A/B test: promote it with POST /email/ab-test/${found.abTest.campaign_id}/evaluate.`);
    const promotion = await promote(merchantId, params.id, query.force === true || body.force === true);
    const variant = promotion.experiment.variants.findIndex((v) => v.key === promotion.winner.key);
    return {
      body: envelope(
        {
          experiment: experimentView(promotion.experiment),
          promoted_variant: { key: promotion.winner.key, name: promotion.winner.name, is_control: variant === 0, setting: { ...promotion.winner.setting } },
          forced: promotion.forced,
          results: promotion.results,
          default_setting: { ...(promotion.strategy[promotion.experiment.kind] ?? {}) },
        },
        requestId,
        merchantId,
      ),
    };
  },
);
