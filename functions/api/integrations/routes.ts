import { type RouteDef, ADMIN, READ, v1 } from '#api/route-rows';

/** The `integrations` group's rows of the route table: its Lambda serves exactly these. */
export const integrationsRoutes: readonly RouteDef[] = [
  v1('integrations', 'POST', '/integrations/storefront/register', 'registerStorefront', ADMIN, 'Associate a storefront'),
  v1('integrations', 'GET', '/integrations/health', 'listIntegrationHealth', READ, 'Health of all integrations'),
  v1('integrations', 'GET', '/integrations/{id}/health', 'getIntegrationHealth', READ, 'Health of one integration'),
  v1('integrations', 'GET', '/integrations/{id}/errors', 'listIntegrationErrors', READ, 'Recent errors of one integration'),
];
