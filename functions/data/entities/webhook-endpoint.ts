import { idBody } from '#core/ids';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../webhook-endpoint-repository';
import { WEBHOOK_ENTITY, webhookKeys } from '../keys';
import { defineEntity } from './define-entity';

/** `we_<body>`: the id of the webhook endpoint stored under that body. */
export const webhookEndpointIdFor = (body: string): string => `we_${body}`;
export const webhookEndpointBodyOf = (id: string): string | undefined => idBody(id, 'we');

/** `whd_<body>`: the id of a delivery attempt. */
export const webhookDeliveryIdFor = (body: string): string => `whd_${body}`;

/** A merchant's outbound webhook endpoint; its signing secrets are stored sealed (secret box). */
export const webhookEndpointEntity = defineEntity<WebhookEndpointRecord>({
  name: WEBHOOK_ENTITY.endpoint,
  key: (endpoint) => webhookKeys.endpoint(endpoint.merchant_id, webhookEndpointBodyOf(endpoint.id) as string),
});

/** One delivery attempt of the log, kept 30 days (`expires_at`, the table's TTL attribute, not read back). */
export const webhookDeliveryEntity = defineEntity<WebhookDeliveryRecord & { readonly expires_at: number }, void, WebhookDeliveryRecord>({
  name: WEBHOOK_ENTITY.delivery,
  key: (delivery) => webhookKeys.delivery(delivery.merchant_id, idBody(delivery.id, 'whd') as string),
  internal: ['expires_at'],
});
