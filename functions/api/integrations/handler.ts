import { createGroupHandler } from '#api/group-handler';
import { integrationsRoutes } from './routes';

/** The integrations Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(integrationsRoutes, {});
