import { createGroupHandler } from '#api/group-handler';
import { analyticsRoutes } from './routes';

/** The analytics Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(analyticsRoutes, {});
