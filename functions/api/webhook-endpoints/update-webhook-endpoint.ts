import { changeEndpoint } from '#services/webhook-endpoints';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { updateWebhookEndpointSchemas } from './schemas';
import { webhookEndpointView } from './views';

/**
 * PUT /api/v1/webhooks/endpoints/{id}: url, events, description, enabled (B; A changes url and/or
 * events), all optional, checked as on create. `rotate_secret: true` answers a new
 * `signing_secret` once; the old one keeps signing 24 h. Another merchant's id: 404.
 */
export const updateWebhookEndpoint = defineOperation(
  { auth: 'api_key', schemas: updateWebhookEndpointSchemas },
  async ({ body, params, principal, requestId }) => {
    const { endpoint, secret } = await changeEndpoint(principal.merchantId, params.id, body);
    return {
      body: envelope({ ...webhookEndpointView(endpoint), ...(secret === undefined ? {} : { signing_secret: secret }) }, requestId, principal.merchantId),
    };
  },
);
