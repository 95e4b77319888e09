import * as z from '#shared/zod';
import { GROUP_BYS } from '#core/analytics/period';

/**
 * The period fields of analytics query strings. Dates are checked by `resolvePeriod`
 * (core/analytics/period.ts), which also applies the defaults and the range limits, so that every
 * route reports the same 400 with the same `param`.
 */
export const periodQuery = {
  start_date: z
    .optional(z.string().check(z.maxLength(10)))
    .clone()
    .register(z.globalRegistry, { description: 'First day, `YYYY-MM-DD` (UTC), included. Default: 29 days before end_date.' }),
  end_date: z
    .optional(z.string().check(z.maxLength(10)))
    .clone()
    .register(z.globalRegistry, { description: 'Last day, `YYYY-MM-DD` (UTC), included. Default: today.' }),
};

export const groupByQuery = {
  group_by: z.optional(z.enum(GROUP_BYS)).clone().register(z.globalRegistry, {
    description: 'Size of the time-series buckets: hour (ranges up to 731 days), day (default), week (ISO, from Monday) or month.',
  }),
};
