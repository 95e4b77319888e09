import { isOpen } from '#core/payments';
import { ENTITY, rollupKeys } from '../keys';
import type { Projection } from './projection';
import { rolledUpPaymentOf } from './payment-rollups';

/**
 * `COUNT#OPEN`: the payments open now (the at-risk state), whatever their cohort: per open
 * status (pending, retrying, paused), `<status>_count` and `<status>_amount_<currency>` (amounts
 * never summed across currencies). A payment leaves it when it is recovered, ends terminal or is
 * erased.
 */
export const openStateProjection: Projection = (item) => {
  const payment = rolledUpPaymentOf(item);
  if (payment === undefined || !isOpen(payment.status)) return [];
  return [
    {
      key: rollupKeys.openState(payment.merchant_id),
      counters: { [`${payment.status}_count`]: 1, [`${payment.status}_amount_${payment.currency}`]: payment.amount },
      attributes: { entity: ENTITY.counters, merchant_id: payment.merchant_id },
    },
  ];
};
