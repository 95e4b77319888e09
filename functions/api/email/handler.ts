import { createGroupHandler } from '#api/group-handler';
import { emailRoutes } from './routes';

/** The email Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(emailRoutes, {});
