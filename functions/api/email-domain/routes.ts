import { type RouteDef, ADMIN, READ, at } from '#api/route-rows';

/** The `email-domain` group's rows of the route table: its Lambda serves exactly these. */
export const emailDomainRoutes: readonly RouteDef[] = [
  at('edge', 'email-domain', 'POST', '/api/email-domain/auto-provision', 'autoProvisionEmailDomain', 'api_key', ADMIN, 'Provision a service sending subdomain'),
  at('edge', 'email-domain', 'POST', '/api/email-domain/custom-setup', 'setUpCustomEmailDomain', 'api_key', ADMIN, 'Start custom sending-domain setup'),
  at('edge', 'email-domain', 'POST', '/api/email-domain/verify', 'verifyEmailDomain', 'api_key', ADMIN, 'Verify the DNS of a pending domain'),
  at('edge', 'email-domain', 'GET', '/api/email-domain/status/{id}', 'getEmailDomainStatus', 'api_key', READ, 'Status and DNS diagnostics'),
  at('edge', 'email-domain', 'DELETE', '/api/email-domain/{id}', 'deleteEmailDomain', 'api_key', ADMIN, 'Deactivate a sending domain'),
];
