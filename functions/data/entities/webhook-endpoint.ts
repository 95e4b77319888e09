import { createHash } from 'node:crypto';
import { idBody, timeOrderedIdFloor } from '#core/ids';
import type { DeliveryTarget, WebhookDeliveryRecord, WebhookEndpointRecord } from '../webhook-endpoint-repository';
import { WEBHOOK_ENTITY, webhookDueKeys, webhookKeys } from '../keys';
import { defineEntity } from './define-entity';

/** `we_<body>`: the id of the webhook endpoint stored under that body. */
export const webhookEndpointIdFor = (body: string): string => `we_${body}`;
export const webhookEndpointBodyOf = (id: string): string | undefined => idBody(id, 'we');

/** `whd_<body>`: the id of a delivery attempt. */
export const webhookDeliveryIdFor = (body: string): string => `whd_${body}`;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The id of one attempt of one event to one target, the same every time it is asked for (an
 * at-least-once queue may hand the attempt over twice; both write this one log row). Its first 10
 * characters are the attempt's scheduled time, as in a time-ordered id, so the log still lists
 * newest first; the other 16 are a hash of event × target × attempt.
 */
export function webhookAttemptIdFor(scheduledAt: Date, eventId: string, targetId: string, attempt: number): string {
  const digest = createHash('sha256').update(`${eventId}\n${targetId}\n${attempt}`).digest();
  let tail = '';
  for (let i = 0; i < 16; i += 1) tail += CROCKFORD.charAt((digest[i] as number) % 32);
  return webhookDeliveryIdFor(`${timeOrderedIdFloor(scheduledAt).slice(0, 10)}${tail}`);
}

/** A merchant's outbound webhook endpoint; its signing secrets are stored sealed (secret box). */
export const webhookEndpointEntity = defineEntity<WebhookEndpointRecord>({
  name: WEBHOOK_ENTITY.endpoint,
  key: (endpoint) => webhookKeys.endpoint(endpoint.merchant_id, webhookEndpointBodyOf(endpoint.id) as string),
  // Endpoints saved before delivery existed have no disable or failure fields.
  parse: (attributes) =>
    ({
      ...attributes,
      disabled_reason: attributes.disabled_reason ?? null,
      disabled_at: attributes.disabled_at ?? null,
      failing_since: attributes.failing_since ?? null,
    }) as unknown as WebhookEndpointRecord,
});

/**
 * A delivery attempt as stored: its expiry (TTL) and, on a pending retry's row, which kind of target
 * it goes to and the attempt its series began with (a recovery starts a new series; absent: 1).
 */
export type StoredWebhookDelivery = WebhookDeliveryRecord & { readonly expires_at: number; readonly target?: DeliveryTarget; readonly series_start?: number };

/**
 * One delivery attempt of the log, kept 30 days (`expires_at`, the table's TTL attribute, not read
 * back). A `pending` row of a retry whose wait is longer than the queue can delay a message carries
 * an entry of the webhook due index (keys.ts webhookDueKeys) until the every-minute task enqueues it.
 */
export const webhookDeliveryEntity = defineEntity<StoredWebhookDelivery, { readonly due?: boolean } | void, WebhookDeliveryRecord>({
  name: WEBHOOK_ENTITY.delivery,
  key: (delivery) => webhookKeys.delivery(delivery.merchant_id, idBody(delivery.id, 'whd') as string),
  indexes: (delivery, place) =>
    place?.due === true && delivery.status === 'pending' && delivery.next_attempt_at !== null
      ? webhookDueKeys.entry(delivery.merchant_id, idBody(delivery.id, 'whd') as string, delivery.next_attempt_at)
      : {},
  internal: ['expires_at', 'target', 'series_start'],
});
