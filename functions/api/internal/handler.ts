import { createGroupHandler } from '#api/group-handler';
import { internalRoutes } from './routes';

/** The internal Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(internalRoutes, {});
