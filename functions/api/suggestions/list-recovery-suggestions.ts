import { currentSuggestions } from '#services/experiments';
import { vectorNeighbourEvidence } from '#services/suggestion-neighbours';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listRecoverySuggestionsSchemas } from './schemas';
import { suggestionView } from './views';

/**
 * GET /api/v1/suggestions/recovery: what the merchant's last 90 days of payment analytics support
 * (stop retrying a code that never recovers, payday timing of insufficient-funds retries, an SMS
 * step for a segment email recovers poorly), each with its evidence and expected lift; applied
 * and dismissed ones are left out. Reads the day rollups (one Query), never the payments, and for
 * each suggestion its vector neighbours (one vector query): how similar past payments ended.
 */
export const listRecoverySuggestions = defineOperation({ auth: 'api_key', schemas: listRecoverySuggestionsSchemas }, async ({ principal, requestId }) => {
  const suggestions = await currentSuggestions(principal.merchantId, new Date(), vectorNeighbourEvidence);
  return { body: envelope(suggestions.map(suggestionView), requestId, principal.merchantId) };
});
