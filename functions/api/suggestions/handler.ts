import { createGroupHandler } from '#api/group-handler';
import { suggestionsRoutes } from './routes';

/** The suggestions Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(suggestionsRoutes, {});
