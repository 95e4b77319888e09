import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '#data/webhook-endpoint-repository';

/** An endpoint as every answer shows it: never its secrets (the signing secret is shown once, by create and rotate). */
export function webhookEndpointView(endpoint: WebhookEndpointRecord) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: [...endpoint.events],
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.enabled ? null : endpoint.disabled_reason,
    disabled_at: endpoint.enabled ? null : endpoint.disabled_at,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}

/** One attempt of the delivery log. */
export function webhookDeliveryView(delivery: WebhookDeliveryRecord) {
  return {
    id: delivery.id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    endpoint_id: delivery.endpoint_id,
    attempt: delivery.attempt,
    status: delivery.status,
    status_code: delivery.status_code,
    duration_ms: delivery.duration_ms,
    error: delivery.error,
    next_attempt_at: delivery.next_attempt_at,
    created_at: delivery.created_at,
  };
}
