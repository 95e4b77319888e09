import { defineOperation } from '#api/operation';
import { envelope } from '#api/pipeline/responses';
import { provisionCustomHostname as provision } from '#services/custom-hostnames';
import { provisionCustomHostnameSchemas } from './schemas';
import { customHostnameView } from './views';

/**
 * POST /api/custom-hostname/provision (admin): 201 with the new `pending` hostname, the CNAME to
 * create (hostname → the custom host) and the ownership TXT record. Bad hostnames 422
 * `param: hostname`; a hostname already provisioned (by anyone) 409.
 */
export const provisionCustomHostname = defineOperation({ auth: 'api_key', schemas: provisionCustomHostnameSchemas }, async ({ body, principal, requestId }) => {
  const record = await provision(principal.merchantId, body.hostname, new Date());
  return { statusCode: 201, body: envelope(customHostnameView(record), requestId, principal.merchantId) };
});
