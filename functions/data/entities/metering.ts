import type { MeteringRecord } from '#core/metering';
import { DAILY_JOB_ENTITY, dailyJobKeys } from '../keys';
import { defineEntity } from './define-entity';

/** A merchant's billing metering of one UTC day (counts and amounts only: nothing about a customer, so no erasure tag). */
export const meteringEntity = defineEntity<MeteringRecord>({
  name: DAILY_JOB_ENTITY.metering,
  key: (metering) => dailyJobKeys.metering(metering.merchant_id, metering.day),
});
