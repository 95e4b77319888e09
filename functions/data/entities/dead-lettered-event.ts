import { idBody } from '#core/ids';
import type { DeadLetteredEvent } from '../dead-letter-repository';
import { deadLetterKeys, ENTITY } from '../keys';
import { defineEntity } from './define-entity';

/** `dle_<body>`: the id of the dead-lettered event stored under that body. */
export const deadLetteredEventIdFor = (body: string): string => `dle_${body}`;

const bodyOf = (event: DeadLetteredEvent): string => idBody(event.id, 'dle') as string;

/** A dead-lettered event as stored: with its expiry (epoch seconds, the table's TTL attribute), which is not read back. */
export type StoredDeadLetteredEvent = DeadLetteredEvent & { readonly expires_at: number };

/** An inbound provider event the service dropped (ids, reason and times; no payload), under its merchant. */
export const deadLetteredEventEntity = defineEntity<StoredDeadLetteredEvent, void, DeadLetteredEvent>({
  name: ENTITY.deadLetteredEvent,
  key: (event) => deadLetterKeys.inboundEvent(event.merchant_id, bodyOf(event)),
  internal: ['expires_at'],
});
