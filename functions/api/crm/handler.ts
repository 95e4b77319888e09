import { createGroupHandler } from '#api/group-handler';
import { crmRoutes } from './routes';

/** The crm Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(crmRoutes, {});
