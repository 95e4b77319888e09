import { createGroupHandler } from '#api/group-handler';
import { getCustomHostnameBranding } from './get-custom-hostname-branding';
import { customHostnameRoutes } from './routes';

/** The custom-hostname Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(customHostnameRoutes, { getCustomHostnameBranding });
