import { idBody } from '#core/ids';
import type { OutboundEvent } from '../outbound-event-repository';
import { automationKeys, customerTags, dailyJobKeys, ENTITY, retryKeys } from '../keys';
import { defineEntity } from './define-entity';

/** `evt_<body>`: the id of the outbound event stored under that body. */
export const outboundEventIdFor = (body: string): string => `evt_${body}`;

const keyOf = (event: OutboundEvent) => retryKeys.outboundEvent(event.merchant_id, idBody(event.id, 'evt') as string);

/** An outbound event as stored: with its expiry (epoch seconds, the table's TTL attribute), which is not read back. */
export type StoredOutboundEvent = OutboundEvent & { readonly expires_at: number };

/**
 * An outbound event for the webhooks to deliver, filed among the data (GSI2, erasure) of the
 * customer it concerns; the customer is its place only (the payload names it, the item does not).
 * An event about no customer (`customer_id: null`: an endpoint disabled, a customer erased) is
 * the merchant's, and no erasure removes it.
 * Indexed by each of its (at most two) names, newest first, for the automation poll (keys.ts), and
 * in the retention index (GSI4) at its expiry.
 */
export const outboundEventEntity = defineEntity<StoredOutboundEvent, { readonly customer_id: string | null }, OutboundEvent>({
  name: ENTITY.outboundEvent,
  key: keyOf,
  indexes: (event, { customer_id }) => {
    const body = idBody(event.id, 'evt') as string;
    const [first, second] = event.types;
    return {
      // The daily retention-cleanup deletes it once its 30 days are over (TTL alone may lag by days).
      ...dailyJobKeys.retention(event.merchant_id, body, event.expires_at),
      ...(customer_id === null ? {} : customerTags.record(event.merchant_id, customer_id, keyOf(event))),
      // The per-type index (GET /automation/poll/{eventType}): one entry per name of the fact.
      ...(first === undefined ? {} : automationKeys.eventByType(event.merchant_id, first, body, 'GSI1')),
      ...(second === undefined ? {} : automationKeys.eventByType(event.merchant_id, second, body, 'GSI3')),
    };
  },
  // `dispatched_at`: set by the dispatcher once the deliveries are enqueued (outbound-event-repository markDispatched), not part of the event.
  internal: ['expires_at', 'dispatched_at'],
});
