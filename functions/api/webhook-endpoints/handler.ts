import { createGroupHandler } from '#api/group-handler';
import { webhookEndpointsRoutes } from './routes';

/** The webhook-endpoints Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(webhookEndpointsRoutes, {});
