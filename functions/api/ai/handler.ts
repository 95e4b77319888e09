import { createGroupHandler } from '#api/group-handler';
import { aiRoutes } from './routes';

/** The ai Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(aiRoutes, {});
