import { deleteWebhookEndpoint as removeEndpoint } from '#data/webhook-endpoint-repository';
import { defineOperation } from '#api/operation';
import { deleteWebhookEndpointSchemas } from './schemas';

/** DELETE /api/v1/webhooks/endpoints/{id}: 204; the endpoint receives nothing more. Another merchant's id: 404. */
export const deleteWebhookEndpoint = defineOperation({ auth: 'api_key', schemas: deleteWebhookEndpointSchemas }, async ({ params, principal }) => {
  await removeEndpoint(principal.merchantId, params.id);
  return { statusCode: 204, body: undefined };
});
