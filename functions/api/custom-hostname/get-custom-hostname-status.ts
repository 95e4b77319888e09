import { defineOperation } from '#api/operation';
import { envelope } from '#api/pipeline/responses';
import { getCustomHostname } from '#data/custom-hostname-repository';
import { getCustomHostnameStatusSchemas } from './schemas';
import { customHostnameView } from './views';

/** GET /api/custom-hostname/status/{id} (read): the hostname's and certificate's states, each DNS record expected and found, last and next check. */
export const getCustomHostnameStatus = defineOperation(
  { auth: 'api_key', schemas: getCustomHostnameStatusSchemas },
  async ({ params, principal, requestId }) => {
    const record = await getCustomHostname(principal.merchantId, params.id);
    return { body: envelope(customHostnameView(record), requestId, principal.merchantId) };
  },
);
