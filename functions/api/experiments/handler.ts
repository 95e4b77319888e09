import { createGroupHandler } from '#api/group-handler';
import { experimentsRoutes } from './routes';

/** The experiments Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(experimentsRoutes, {});
