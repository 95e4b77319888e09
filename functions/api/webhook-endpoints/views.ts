import type { WebhookEndpointRecord } from '#data/webhook-endpoint-repository';

/** An endpoint as every answer shows it: never its secrets (the signing secret is shown once, by create and rotate). */
export function webhookEndpointView(endpoint: WebhookEndpointRecord) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: [...endpoint.events],
    description: endpoint.description,
    enabled: endpoint.enabled,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}
