import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { applySuggestion } from './apply-suggestion';
import { dismissSuggestion } from './dismiss-suggestion';
import { listRecoverySuggestions } from './list-recovery-suggestions';
import { suggestionsRoutes } from './routes';

/** The suggestions Lambda: recovery suggestions from the merchant's analytics, apply and dismiss. */
export const handler = createGroupHandler(suggestionsRoutes, { listRecoverySuggestions, applySuggestion, dismissSuggestion }, apiKeyAuth);
