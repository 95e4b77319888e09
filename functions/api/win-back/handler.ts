import { createGroupHandler } from '#api/group-handler';
import { winBackRoutes } from './routes';

/** The win-back Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(winBackRoutes, {});
