import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { getIntegrationHealth, listIntegrationErrors, listIntegrationHealth } from './integration-health';
import { registerStorefront } from './register-storefront';
import { integrationsRoutes } from './routes';

/** The integrations Lambda: storefront registration and the integration health routes. */
export const handler = createGroupHandler(
  integrationsRoutes,
  { registerStorefront, listIntegrationHealth, getIntegrationHealth, listIntegrationErrors },
  apiKeyAuth,
);
