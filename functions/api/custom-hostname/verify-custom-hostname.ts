import { defineOperation } from '#api/operation';
import { envelope } from '#api/pipeline/responses';
import { customHostnameOf, verifyCustomHostname as verify } from '#services/custom-hostnames';
import { verifyCustomHostnameSchemas } from './schemas';
import { customHostnameView } from './views';

/**
 * POST /api/custom-hostname/verify (admin), body `{ id }` or `{ hostname }` (both: they must name
 * the same hostname): checks its DNS now and answers it with its new states. A hostname of
 * another merchant is 404; a deleted one 409.
 */
export const verifyCustomHostname = defineOperation({ auth: 'api_key', schemas: verifyCustomHostnameSchemas }, async ({ body, principal, requestId }) => {
  const id = await customHostnameOf(principal.merchantId, body);
  const record = await verify(principal.merchantId, id, new Date());
  return { body: envelope(customHostnameView(record), requestId, principal.merchantId) };
});
