import { createGroupHandler } from '#api/group-handler';
import { vectorsRoutes } from './routes';

/** The vectors Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(vectorsRoutes, {});
