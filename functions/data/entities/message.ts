import { type MessageRecord, messageBodyOf } from '#core/messages';
import { customerTags, ENTITY, messageDueKeys, messageKeys } from '../keys';
import { defineEntity } from './define-entity';

const bodyOf = (message: MessageRecord): string => messageBodyOf(message.id) as string;

/**
 * A message of the communication log: among its customer's data (GSI2, erasure), and in the
 * message due index (GSI4) only while it is scheduled. `delivery_event_ids` and `delivery_rank`
 * are kept on the item for the delivery callbacks' conditions and not read back.
 */
export const messageEntity = defineEntity<MessageRecord>({
  name: ENTITY.message,
  key: (message) => messageKeys.message(message.merchant_id, bodyOf(message)),
  indexes: (message) => ({
    ...customerTags.record(message.merchant_id, message.customer_id, messageKeys.message(message.merchant_id, bodyOf(message))),
    ...(message.status === 'scheduled' && message.scheduled_at ? messageDueKeys.entry(message.merchant_id, bodyOf(message), message.scheduled_at) : {}),
  }),
  internal: ['delivery_event_ids', 'delivery_rank'],
  // Messages written before campaigns and SMS/WhatsApp were all dunning emails.
  parse: (attributes) => {
    const message = attributes as unknown as MessageRecord;
    return {
      ...message,
      channel: message.channel ?? 'email',
      purpose: message.purpose ?? 'dunning',
      campaign_id: message.campaign_id ?? null,
      step_index: message.step_index ?? null,
      variant: message.variant ?? null,
    };
  },
});
