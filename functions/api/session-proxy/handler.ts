import { createGroupHandler } from '#api/group-handler';
import { sessionProxyRoutes } from './routes';

/** The session-proxy Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(sessionProxyRoutes, {});
