import { createGroupHandler } from '#api/group-handler';
import { campaignsRoutes } from './routes';

/** The campaigns Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(campaignsRoutes, {});
