import type { Merchant } from '#core/merchants';
import { ENTITY, keys } from '../keys';
import { defineEntity } from './define-entity';

/** A merchant, by its id, in the operator's listing of every merchant (GSI1, oldest first). */
export const merchantEntity = defineEntity<Merchant>({
  name: ENTITY.merchant,
  key: (merchant) => keys.merchant(merchant.id),
  indexes: (merchant) => keys.merchantListing(merchant.created_at, merchant.id),
});
