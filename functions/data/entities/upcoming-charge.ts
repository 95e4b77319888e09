import { dayOf } from '#core/analytics/period';
import { type UpcomingChargeRecord, upcomingChargeBodyOf } from '#core/upcoming-charges';
import { customerTags, UPCOMING_CHARGE_ENTITY, upcomingChargeKeys } from '../keys';
import { defineEntity } from './define-entity';

const bodyOf = (charge: UpcomingChargeRecord): string => upcomingChargeBodyOf(charge.id) as string;

/** An upcoming charge: filed under its due day (GSI1, sharded) and among its customer's data (GSI2, erasure); `expires_at` is its TTL. */
export const upcomingChargeEntity = defineEntity<UpcomingChargeRecord & { readonly expires_at: number }, void, UpcomingChargeRecord>({
  name: UPCOMING_CHARGE_ENTITY.charge,
  key: (charge) => upcomingChargeKeys.charge(charge.merchant_id, bodyOf(charge)),
  indexes: (charge) => ({
    ...upcomingChargeKeys.index(charge.merchant_id, bodyOf(charge), dayOf(new Date(charge.due_at))),
    ...customerTags.record(charge.merchant_id, charge.customer_id, upcomingChargeKeys.charge(charge.merchant_id, bodyOf(charge))),
  }),
  internal: ['expires_at'],
});
