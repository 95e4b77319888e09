import { type RouteDef, ADMIN, READ, v1 } from '#api/route-rows';
import { getIntegrationHealthSchemas, listIntegrationErrorsSchemas, listIntegrationHealthSchemas, registerStorefrontSchemas } from './schemas';

/** The `integrations` group's rows of the route table: its Lambda serves exactly these. */
export const integrationsRoutes: readonly RouteDef[] = [
  v1('integrations', 'POST', '/integrations/storefront/register', 'registerStorefront', ADMIN, 'Associate a storefront', {
    schemas: registerStorefrontSchemas,
  }),
  v1('integrations', 'GET', '/integrations/health', 'listIntegrationHealth', READ, 'Health of all integrations', { schemas: listIntegrationHealthSchemas }),
  v1('integrations', 'GET', '/integrations/{id}/health', 'getIntegrationHealth', READ, 'Health of one integration', { schemas: getIntegrationHealthSchemas }),
  v1('integrations', 'GET', '/integrations/{id}/errors', 'listIntegrationErrors', READ, 'Recent errors of one integration', {
    schemas: listIntegrationErrorsSchemas,
  }),
];
