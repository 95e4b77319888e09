import { idBody } from '#core/ids';
import type { Psp } from '#core/providers';
import type { WebhookLogRecord } from '../webhook-log-repository';
import { dailyJobKeys, ENTITY, INTERNAL_ENTITY, internalKeys, WEBHOOK_EVENT_ENTITY, webhookEventKeys, webhookLogKeys } from '../keys';
import { defineEntity } from './define-entity';

/** `whk_<body>`: the id of the delivery stored under that body. */
export const webhookLogIdFor = (body: string): string => `whk_${body}`;
export const webhookLogBodyOf = (id: string): string | undefined => idBody(id, 'whk');

const bodyOf = (id: string): string => webhookLogBodyOf(id) as string;

/**
 * A stored provider webhook delivery (the raw payload, 30-day TTL `expires_at`), filed among the
 * data of the first customer it concerns (GSI2, erasure) once the consumer has named one, and in
 * the retention index (GSI4) at its expiry.
 */
export const webhookLogEntity = defineEntity<WebhookLogRecord>({
  name: ENTITY.webhookLog,
  key: (log) => webhookLogKeys.delivery(log.merchant_id, bodyOf(log.id)),
  indexes: (log) => ({
    // The daily retention-cleanup deletes it once its 30 days are over (TTL alone may lag by days).
    ...dailyJobKeys.retention(log.merchant_id, bodyOf(log.id), log.expires_at),
    ...(log.customer_id === undefined ? {} : webhookLogKeys.customerTag(log.merchant_id, log.customer_id, bodyOf(log.id))),
  }),
});

/** A provider event's intake marker: the one delivery stored for it, and whether that one is on the queue. */
export interface WebhookEventMarker {
  readonly webhook_log_id: string;
  readonly enqueued: boolean;
  /** Epoch seconds: the table's TTL attribute, the delivery's own. */
  readonly expires_at: number;
}

/** The event a marker is kept for (its key only: the marker stores ids and nothing about the event). */
export interface WebhookEventOf {
  readonly merchant_id: string;
  readonly psp: Psp;
  /** A digest of the delivery's provider event ids. */
  readonly identity: string;
}

/** The marker of one provider event (webhookEventKeys), put with the event's first delivery. */
export const webhookEventEntity = defineEntity<WebhookEventMarker, WebhookEventOf>({
  name: WEBHOOK_EVENT_ENTITY,
  key: (_marker, event) => webhookEventKeys.event(event.merchant_id, event.psp, event.identity),
});

/** The link from a batch delivery to a further customer it concerns (the delivery is filed under the first). */
export interface WebhookLogLink {
  readonly webhook_log_id: string;
  readonly customer_id: string;
  /** Epoch seconds: the table's TTL attribute, the delivery's own. */
  readonly expires_at: number;
}

/** A delivery's link to a further customer, filed among that customer's data (GSI2), so erasing it deletes the link and the delivery. */
export const webhookLogLinkEntity = defineEntity<WebhookLogLink, { readonly merchant_id: string }>({
  name: ENTITY.webhookLogLink,
  key: (link, { merchant_id }) => webhookLogKeys.customerLink(merchant_id, bodyOf(link.webhook_log_id), link.customer_id),
  indexes: (link, { merchant_id }) => webhookLogKeys.customerLinkTag(merchant_id, link.customer_id, bodyOf(link.webhook_log_id)),
});

/** Where a stored delivery is, found by its id alone (the internal routes): ids only, no payload. */
export interface WebhookLogLookup {
  readonly webhook_log_id: string;
  readonly merchant_id: string;
  /** Epoch seconds: the table's TTL attribute, the delivery's own. */
  readonly expires_at: number;
}

/** The lookup of a delivery by id (internalKeys.webhookLogById), put in the transaction that stores the delivery. */
export const webhookLogLookupEntity = defineEntity<WebhookLogLookup>({
  name: INTERNAL_ENTITY.webhookLogLookup,
  key: (lookup) => internalKeys.webhookLogById(bodyOf(lookup.webhook_log_id)),
});
