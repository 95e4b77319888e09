import { type RouteDef, READ, WRITE, v1 } from '#api/route-rows';
import { applySuggestionSchemas, dismissSuggestionSchemas, listRecoverySuggestionsSchemas } from './schemas';

/** The `suggestions` group's rows of the route table: its Lambda serves exactly these. */
export const suggestionsRoutes: readonly RouteDef[] = [
  v1('suggestions', 'GET', '/suggestions/recovery', 'listRecoverySuggestions', READ, 'AI recovery suggestions', { schemas: listRecoverySuggestionsSchemas }),
  v1('suggestions', 'POST', '/suggestions/{id}/apply', 'applySuggestion', WRITE, 'Apply a suggestion', { schemas: applySuggestionSchemas }),
  v1('suggestions', 'POST', '/suggestions/{id}/dismiss', 'dismissSuggestion', WRITE, 'Dismiss a suggestion', { schemas: dismissSuggestionSchemas }),
];
