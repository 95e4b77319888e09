import { type RouteDef, PUBLIC, WRITE, v1 } from '#api/route-rows';
import { completeCrmOauthSchemas, syncCrmSchemas } from './schemas';

/** The `crm` group's rows of the route table: its Lambda serves exactly these. */
export const crmRoutes: readonly RouteDef[] = [
  v1('crm', 'POST', '/crm_a/oauth/callback', 'completeCrmAOauth', [], 'OAuth token exchange for CRM A', { ...PUBLIC, schemas: completeCrmOauthSchemas }),
  v1('crm', 'POST', '/crm_b/oauth/callback', 'completeCrmBOauth', [], 'OAuth token exchange for CRM B', { ...PUBLIC, schemas: completeCrmOauthSchemas }),
  v1('crm', 'POST', '/crm_a/sync', 'syncCrmA', WRITE, 'Push recovery data to CRM A', { schemas: syncCrmSchemas }),
  v1('crm', 'POST', '/crm_b/sync', 'syncCrmB', WRITE, 'Push recovery data to CRM B', { schemas: syncCrmSchemas }),
];
