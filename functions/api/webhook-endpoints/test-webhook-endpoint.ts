import { sendTestEvent } from '#services/webhook-endpoints';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { testWebhookEndpointSchemas } from './schemas';

/**
 * POST /api/v1/webhooks/endpoints/{id}/test: sends a real signed `webhook.test` event now through
 * the SSRF-safe client (once, no retries; a disabled endpoint can be tested too), logs the
 * attempt in the delivery log, and reports it (B's data).
 */
export const testWebhookEndpoint = defineOperation({ auth: 'api_key', schemas: testWebhookEndpointSchemas }, async ({ params, principal, requestId }) => {
  const { endpoint, result, delivery } = await sendTestEvent(principal.merchantId, params.id);
  return {
    body: envelope(
      {
        success: result.success,
        status_code: result.status,
        response_time_ms: result.duration_ms,
        endpoint_id: endpoint.id,
        event_id: delivery.event_id,
        error: delivery.error,
      },
      requestId,
      principal.merchantId,
    ),
  };
});
