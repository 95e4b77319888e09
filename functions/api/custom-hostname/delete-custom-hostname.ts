import { defineOperation } from '#api/operation';
import { envelope } from '#api/pipeline/responses';
import { deleteCustomHostname as remove } from '#services/custom-hostnames';
import { deleteCustomHostnameSchemas } from './schemas';
import { customHostnameView } from './views';

/**
 * DELETE /api/custom-hostname/{id} (admin): 200 with the hostname, now `deleted` (its status still
 * answers for 30 days). Its CDN cache is purged, its CDN association and certificate removed, and
 * its claim released, so it may be provisioned again. Already deleted: 409.
 */
export const deleteCustomHostname = defineOperation({ auth: 'api_key', schemas: deleteCustomHostnameSchemas }, async ({ params, principal, requestId }) => {
  const record = await remove(principal.merchantId, params.id, new Date());
  return { body: envelope(customHostnameView(record), requestId, principal.merchantId) };
});
