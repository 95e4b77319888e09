import { type RouteDef, ADMIN, READ, at } from '#api/route-rows';
import { getCustomHostnameBrandingSchemas } from './schemas';

/** The `custom-hostname` group's rows of the route table: its Lambda serves exactly these. */
export const customHostnameRoutes: readonly RouteDef[] = [
  at('edge', 'custom-hostname', 'POST', '/api/custom-hostname/provision', 'provisionCustomHostname', 'api_key', ADMIN, 'Provision a custom hostname'),
  at('edge', 'custom-hostname', 'POST', '/api/custom-hostname/verify', 'verifyCustomHostname', 'api_key', ADMIN, 'Verify the CNAME of a custom hostname'),
  at('edge', 'custom-hostname', 'GET', '/api/custom-hostname/status/{id}', 'getCustomHostnameStatus', 'api_key', READ, 'Verification status'),
  at('edge', 'custom-hostname', 'DELETE', '/api/custom-hostname/{id}', 'deleteCustomHostname', 'api_key', ADMIN, 'Remove a custom hostname'),
  at(
    'edge',
    'custom-hostname',
    'GET',
    '/api/custom-hostname/branding/{merchant_id}',
    'getCustomHostnameBranding',
    'public',
    [],
    'Branding for a custom hostname',
    getCustomHostnameBrandingSchemas,
  ),
];
