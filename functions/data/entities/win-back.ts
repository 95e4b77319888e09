import { type WinBackRecord, winBackBodyOf } from '#core/win-back';
import { WIN_BACK_ENTITY, winBackKeys } from '../keys';
import { defineEntity } from './define-entity';

const bodyOf = (offer: WinBackRecord): string => winBackBodyOf(offer.id) as string;

/** A win-back offer, filed under its customer for erasure. */
export const winBackEntity = defineEntity<WinBackRecord>({
  name: WIN_BACK_ENTITY.offer,
  key: (offer) => winBackKeys.offer(offer.merchant_id, bodyOf(offer)),
  indexes: (offer) => winBackKeys.customerTag(offer.merchant_id, offer.customer_id, bodyOf(offer)),
});
