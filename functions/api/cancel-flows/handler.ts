import { createGroupHandler } from '#api/group-handler';
import { cancelFlowsRoutes } from './routes';

/** The cancel-flows Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(cancelFlowsRoutes, {});
