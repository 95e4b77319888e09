import { type CardExpiry, cardExpiryMonth, customerBodyOf } from '#core/customers';
import { CARD_EXPIRY_ENTITY, cardExpiryKeys, customerTags } from '../keys';
import { defineEntity } from './define-entity';

/** A customer's entry in the card-expiry index: whose card expires when (keys.ts `cardExpiryKeys`). */
export interface CardExpiryEntry extends CardExpiry {
  readonly merchant_id: string;
  readonly customer_id: string;
}

const bodyOf = (entry: CardExpiryEntry): string => customerBodyOf(entry.customer_id) as string;

/** Filed under its expiry month (GSI1, sharded) and among its customer's data (GSI2, erasure). */
export const cardExpiryEntryEntity = defineEntity<CardExpiryEntry>({
  name: CARD_EXPIRY_ENTITY.entry,
  key: (entry) => cardExpiryKeys.entry(entry.merchant_id, bodyOf(entry)),
  indexes: (entry) => ({
    ...cardExpiryKeys.index(entry.merchant_id, bodyOf(entry), cardExpiryMonth(entry)),
    ...customerTags.record(entry.merchant_id, entry.customer_id, cardExpiryKeys.entry(entry.merchant_id, bodyOf(entry))),
  }),
});
