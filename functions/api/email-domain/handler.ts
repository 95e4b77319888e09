import { createGroupHandler } from '#api/group-handler';
import { emailDomainRoutes } from './routes';

/** The email-domain Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(emailDomainRoutes, {});
