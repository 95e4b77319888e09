import type { PaymentRecord } from '#core/payments';
import { ENTITY, paymentKeys } from '../keys';
import type { Projection } from './projection';

/**
 * The counter names a payment counts under: every combination of status (s), decline
 * category (c) and psp (p), so any filter of GET /payments has its total in one item.
 */
export function paymentCounterNames(p: Pick<PaymentRecord, 'status' | 'decline_category' | 'psp'>): string[] {
  const s = `s:${p.status}`;
  const c = `c:${p.decline_category}`;
  const q = `p:${p.psp}`;
  return ['all', s, c, q, `${s}|${c}`, `${s}|${q}`, `${c}|${q}`, `${s}|${c}|${q}`];
}

/**
 * The payment list totals (`COUNT#PAY`, read by GET /payments' `pagination.total`): each payment
 * counts 1 under each name of `paymentCounterNames`, so a status or category change moves it
 * from one set of names to another and an erased payment leaves them all.
 */
export const paymentCountersProjection: Projection = (item) => {
  if (item.entity !== ENTITY.payment || typeof item.merchant_id !== 'string') return [];
  const payment = item as unknown as Pick<PaymentRecord, 'merchant_id' | 'status' | 'decline_category' | 'psp'>;
  return [
    {
      key: paymentKeys.counters(payment.merchant_id),
      counters: Object.fromEntries(paymentCounterNames(payment).map((name) => [name, 1])),
      attributes: { entity: ENTITY.counters },
    },
  ];
};
