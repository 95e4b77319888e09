import { recoverFailedDeliveries } from '#services/recover-webhook-deliveries';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { recoverWebhookEndpointSchemas } from './schemas';

/**
 * POST /api/v1/webhooks/endpoints/{id}/recover `{ since, until? }` (beyond the spec; Svix's
 * recover): sends again every event of the window whose attempts to this endpoint ended failed,
 * one new attempt each, the oldest taken first, at most 1,000 a call (`has_more`: call again with the same
 * window). 202 with what it did. A disabled endpoint is 409 (enable it first); another
 * merchant's id 404; a window starting after its end or more than 30 days ago 422 `param: since`.
 */
export const recoverWebhookEndpoint = defineOperation(
  { auth: 'api_key', schemas: recoverWebhookEndpointSchemas },
  async ({ body, params, principal, requestId }) => {
    const result = await recoverFailedDeliveries(principal.merchantId, params.id, body);
    return { statusCode: 202, body: envelope(result, requestId, principal.merchantId) };
  },
);
