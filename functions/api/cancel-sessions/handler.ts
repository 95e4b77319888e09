import { createGroupHandler } from '#api/group-handler';
import { cancelSessionsRoutes } from './routes';

/** The cancel-sessions Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(cancelSessionsRoutes, {});
