import { dayOf } from '#core/analytics/period';
import { type MeteringRecord, meteringOf } from '#core/metering';
import { listMerchants } from '#data/merchant-repository';
import { listMetering, putMetering, recoveriesOfDay } from '#data/metering-repository';
import { readRollups } from '#data/rollup-queries';

const DAY_MS = 86_400_000;
/**
 * Days before yesterday a run fills in when they have no metering yet (a run missed or failed);
 * they are never rewritten, so figures already reported stay as they were.
 */
export const METERING_CATCH_UP_DAYS = 6;

/** One merchant's metering of one day, computed now (not written). */
export async function computeMetering(merchantId: string, day: string, now: Date): Promise<MeteringRecord> {
  const [recoveries, rollups] = await Promise.all([recoveriesOfDay(merchantId, day), readRollups(merchantId, 'PAY', 'D', day, day)]);
  return meteringOf(merchantId, day, recoveries, rollups, now);
}

export type MeteringSummary = {
  readonly day: string;
  readonly merchants: number;
  /** Earlier days filled in (catch-up). */
  readonly filled: number;
};

/**
 * The daily task `billing-metering`: for every merchant, the UTC day before `now` is metered
 * (recoveries and recovered amounts per currency, payments processed) into one item per merchant
 * and day, rewritten by a rerun with the same figures; each of the METERING_CATCH_UP_DAYS days
 * before it is metered only when it has no item yet. Reads per merchant: one Query of the day's
 * recovery events, one of its `PAY` day rollups (written by the stream consumer, which trails
 * writes by seconds: the day closed 8 hours before the 08:00 run).
 */
export async function meterBilling(now: Date): Promise<MeteringSummary> {
  const yesterday = dayOf(new Date(now.getTime() - DAY_MS));
  const earliest = dayOf(new Date(now.getTime() - (METERING_CATCH_UP_DAYS + 1) * DAY_MS));
  const merchants = await listMerchants();
  let filled = 0;
  for (const merchant of merchants) {
    await putMetering(await computeMetering(merchant.id, yesterday, now), true);
    const metered = new Set((await listMetering(merchant.id, earliest, yesterday)).map((record) => record.day));
    for (let back = METERING_CATCH_UP_DAYS + 1; back >= 2; back -= 1) {
      const day = dayOf(new Date(now.getTime() - back * DAY_MS));
      // Not before the merchant existed: there is nothing to meter.
      if (metered.has(day) || day < merchant.created_at.slice(0, 10)) continue;
      if (await putMetering(await computeMetering(merchant.id, day, now), false)) filled += 1;
    }
  }
  return { day: yesterday, merchants: merchants.length, filled };
}
