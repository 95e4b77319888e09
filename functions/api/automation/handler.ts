import { createGroupHandler } from '#api/group-handler';
import { automationRoutes } from './routes';

/** The automation Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(automationRoutes, {});
