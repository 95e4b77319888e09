import { createGroupHandler } from '#api/group-handler';
import { widgetRoutes } from './routes';

/** The widget Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(widgetRoutes, {});
