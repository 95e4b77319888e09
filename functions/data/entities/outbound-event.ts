import { idBody } from '#core/ids';
import type { OutboundEvent } from '../outbound-event-repository';
import { customerTags, ENTITY, retryKeys } from '../keys';
import { defineEntity } from './define-entity';

/** `evt_<body>`: the id of the outbound event stored under that body. */
export const outboundEventIdFor = (body: string): string => `evt_${body}`;

const keyOf = (event: OutboundEvent) => retryKeys.outboundEvent(event.merchant_id, idBody(event.id, 'evt') as string);

/** An outbound event as stored: with its expiry (epoch seconds, the table's TTL attribute), which is not read back. */
export type StoredOutboundEvent = OutboundEvent & { readonly expires_at: number };

/**
 * An outbound event for the webhooks to deliver, filed among the data (GSI2, erasure) of the
 * customer it concerns; the customer is its place only (the payload names it, the item does not).
 */
export const outboundEventEntity = defineEntity<StoredOutboundEvent, { readonly customer_id: string }, OutboundEvent>({
  name: ENTITY.outboundEvent,
  key: keyOf,
  indexes: (event, { customer_id }) => customerTags.record(event.merchant_id, customer_id, keyOf(event)),
  internal: ['expires_at'],
});
