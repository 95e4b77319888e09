import { applySuggestion as apply } from '#services/experiments';
import { vectorNeighbours } from '#services/suggestion-neighbours';
import { experimentView } from '#api/experiments/views';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { applySuggestionSchemas } from './schemas';
import { suggestionView } from './views';

/**
 * POST /api/v1/suggestions/{id}/apply: starts the suggestion's experiment (409 while one of its
 * kind runs), or with `{ "mode": "direct" }` makes its setting the merchant's default now. 409 once
 * applied or dismissed; 404 for an id neither the merchant's analytics nor its vector neighbours
 * propose (another merchant's included).
 */
export const applySuggestion = defineOperation({ auth: 'api_key', schemas: applySuggestionSchemas }, async ({ params, principal, body, requestId }) => {
  const merchantId = principal.merchantId;
  const applied = await apply(merchantId, params.id, body.mode, body.min_sample, vectorNeighbours);
  return {
    body: envelope(
      {
        suggestion: suggestionView(applied.suggestion),
        decision: applied.decision,
        experiment: applied.experiment === null ? null : experimentView(applied.experiment),
        default_setting: applied.strategy === null ? null : { ...(applied.strategy[applied.suggestion.kind] ?? {}) },
      },
      requestId,
      merchantId,
    ),
  };
});
