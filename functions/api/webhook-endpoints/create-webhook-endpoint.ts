import { registerEndpoint } from '#services/webhook-endpoints';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { createWebhookEndpointSchemas } from './schemas';
import { webhookEndpointView } from './views';

/**
 * POST /api/v1/webhooks/endpoints: 201 with the endpoint and its `whsec_` signing secret, shown
 * this once (stored sealed). The URL is checked and its host resolved now (422 `param: url`),
 * `events` against the catalogue (all when omitted; 422 `param: events`); a 17th endpoint is 422.
 */
export const createWebhookEndpoint = defineOperation({ auth: 'api_key', schemas: createWebhookEndpointSchemas }, async ({ body, principal, requestId }) => {
  const { endpoint, secret } = await registerEndpoint(principal.merchantId, body);
  return { statusCode: 201, body: envelope({ ...webhookEndpointView(endpoint), signing_secret: secret }, requestId, principal.merchantId) };
});
