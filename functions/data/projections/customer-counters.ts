import { customerKeys, ENTITY } from '../keys';
import type { Projection } from './projection';

/**
 * The customer totals (`COUNT#CUST`, read by GET /customers' totals): `all` counts every
 * customer, `has_failed` those with an open recovery (`open_payments` > 0).
 */
export const customerCountersProjection: Projection = (item) => {
  if (item.entity !== ENTITY.customer || typeof item.merchant_id !== 'string') return [];
  const open = typeof item.open_payments === 'number' && item.open_payments > 0;
  return [{ key: customerKeys.counters(item.merchant_id), counters: { all: 1, has_failed: open ? 1 : 0 }, attributes: { entity: ENTITY.counters } }];
};
