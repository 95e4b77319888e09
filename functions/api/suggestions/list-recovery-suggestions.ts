import { currentSuggestions } from '#services/experiments';
import { vectorNeighbours } from '#services/suggestion-neighbours';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listRecoverySuggestionsSchemas } from './schemas';
import { suggestionView } from './views';

/**
 * GET /api/v1/suggestions/recovery: what the merchant's last 90 days of payment analytics and its
 * vector neighbours support (stop retrying a code that never recovers, payday timing of
 * insufficient-funds retries, an SMS step for a segment email recovers poorly), each with its
 * source, evidence and expected lift; applied and dismissed ones, and those the neighbours
 * contradict, are left out. Reads the day rollups (one Query), never the payments, and for each
 * candidate target its vector neighbours (one vector query): how similar past payments ended.
 */
export const listRecoverySuggestions = defineOperation({ auth: 'api_key', schemas: listRecoverySuggestionsSchemas }, async ({ principal, requestId }) => {
  const suggestions = await currentSuggestions(principal.merchantId, vectorNeighbours);
  return { body: envelope(suggestions.map(suggestionView), requestId, principal.merchantId) };
});
