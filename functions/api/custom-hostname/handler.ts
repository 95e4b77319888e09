import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { publicAuth } from '#api/pipeline/authenticator';
import { deleteCustomHostname } from './delete-custom-hostname';
import { getCustomHostnameBranding } from './get-custom-hostname-branding';
import { getCustomHostnameStatus } from './get-custom-hostname-status';
import { provisionCustomHostname } from './provision-custom-hostname';
import { customHostnameRoutes } from './routes';
import { verifyCustomHostname } from './verify-custom-hostname';

/** The custom-hostname Lambda: dispatches its rows of the route table. */
export const handler = createGroupHandler(
  customHostnameRoutes,
  {
    getCustomHostnameBranding,
    provisionCustomHostname,
    verifyCustomHostname,
    getCustomHostnameStatus,
    deleteCustomHostname,
  },
  { ...apiKeyAuth, ...publicAuth },
);
