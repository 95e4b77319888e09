import { dismissSuggestion as dismiss } from '#services/experiments';
import { vectorNeighbours } from '#services/suggestion-neighbours';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { dismissSuggestionSchemas } from './schemas';
import { suggestionView } from './views';

/** POST /api/v1/suggestions/{id}/dismiss: the suggestion is not proposed again. 409 once decided; 404 when not proposed. */
export const dismissSuggestion = defineOperation({ auth: 'api_key', schemas: dismissSuggestionSchemas }, async ({ params, principal, requestId }) => {
  const { suggestion, decision } = await dismiss(principal.merchantId, params.id, vectorNeighbours);
  return { body: envelope({ suggestion: suggestionView(suggestion), decision }, requestId, principal.merchantId) };
});
