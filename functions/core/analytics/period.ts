import { InvalidRequestError } from '../errors';

/**
 * The period of an analytics read: `start_date` to `end_date` (days, UTC, both included) and the
 * size of the time-series buckets. Shared by every analytics route that takes dates.
 */
export const GROUP_BYS = ['hour', 'day', 'week', 'month'] as const;
export type GroupBy = (typeof GROUP_BYS)[number];

export interface AnalyticsPeriod {
  readonly start_date: string;
  readonly end_date: string;
  readonly group_by: GroupBy;
}

/** The range a request may ask for when no dates are given: the last 30 days, today included. */
export const DEFAULT_PERIOD_DAYS = 30;
/** Hourly series are limited to two years (17,544 buckets at most). */
export const MAX_HOURLY_RANGE_DAYS = 731;
/** Any series is limited to ten years. */
export const MAX_RANGE_DAYS = 3_660;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of an instant, UTC. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);
/** `YYYY-MM-DDTHH` of an instant, UTC (the hour bucket of rollups). */
export const hourOf = (at: Date): string => at.toISOString().slice(0, 13);

/** The day as midnight UTC, or undefined when it is not a real calendar day. */
function parseDay(value: string): Date | undefined {
  if (!DAY.test(value)) return undefined;
  const at = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(at.getTime()) && dayOf(at) === value ? at : undefined;
}

/**
 * The period a query asks for, with defaults (`end_date` today, `start_date` 29 days before it,
 * `group_by` day), or a 400 naming the field at fault: dates that are not `YYYY-MM-DD` calendar
 * days, `end_date` before `start_date`, an hourly range over two years, any range over ten.
 */
export function resolvePeriod(query: { readonly start_date?: string; readonly end_date?: string; readonly group_by?: GroupBy }, now: Date): AnalyticsPeriod {
  const end = query.end_date === undefined ? parseDay(dayOf(now)) : parseDay(query.end_date);
  if (end === undefined) throw new InvalidRequestError('end_date must be a day, YYYY-MM-DD', { param: 'end_date' });
  const start = query.start_date === undefined ? new Date(end.getTime() - (DEFAULT_PERIOD_DAYS - 1) * DAY_MS) : parseDay(query.start_date);
  if (start === undefined) throw new InvalidRequestError('start_date must be a day, YYYY-MM-DD', { param: 'start_date' });
  if (end < start) throw new InvalidRequestError('end_date must not be before start_date', { param: 'end_date' });
  const days = (end.getTime() - start.getTime()) / DAY_MS + 1;
  const groupBy = query.group_by ?? 'day';
  if (groupBy === 'hour' && days > MAX_HOURLY_RANGE_DAYS) {
    throw new InvalidRequestError(`group_by=hour covers at most ${MAX_HOURLY_RANGE_DAYS} days; use day, week or month`, { param: 'group_by' });
  }
  if (days > MAX_RANGE_DAYS) throw new InvalidRequestError(`A period covers at most ${MAX_RANGE_DAYS} days`, { param: 'start_date' });
  return { start_date: dayOf(start), end_date: dayOf(end), group_by: groupBy };
}

/**
 * The series bucket a rollup bucket (`YYYY-MM-DD` or `YYYY-MM-DDTHH`) falls in: the hour
 * (`YYYY-MM-DDTHH:00:00Z`), the day, the ISO week (its Monday, `YYYY-MM-DD`) or the month (`YYYY-MM`).
 */
export function seriesBucketOf(rollupBucket: string, groupBy: GroupBy): string {
  switch (groupBy) {
    case 'hour':
      return `${rollupBucket.slice(0, 13)}:00:00Z`;
    case 'day':
      return rollupBucket.slice(0, 10);
    case 'week': {
      const day = new Date(`${rollupBucket.slice(0, 10)}T00:00:00.000Z`);
      return dayOf(new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS));
    }
    case 'month':
      return rollupBucket.slice(0, 7);
  }
}

/** Every series bucket of the period, in order (empty buckets included, so a series has no gaps). */
export function seriesBuckets(period: AnalyticsPeriod): string[] {
  const buckets: string[] = [];
  const start = Date.parse(`${period.start_date}T00:00:00.000Z`);
  const end = Date.parse(`${period.end_date}T00:00:00.000Z`);
  const step = period.group_by === 'hour' ? 3_600_000 : DAY_MS;
  const last = period.group_by === 'hour' ? end + DAY_MS - step : end;
  for (let at = start; at <= last; at += step) {
    const bucket = seriesBucketOf(period.group_by === 'hour' ? hourOf(new Date(at)) : dayOf(new Date(at)), period.group_by);
    if (buckets[buckets.length - 1] !== bucket) buckets.push(bucket);
  }
  return buckets;
}

/** The rollup granularity and bucket range to read for a period: hours for hourly series, days otherwise. */
export function rollupRangeOf(period: AnalyticsPeriod): { readonly granularity: 'H' | 'D'; readonly first: string; readonly last: string } {
  return period.group_by === 'hour'
    ? { granularity: 'H', first: `${period.start_date}T00`, last: `${period.end_date}T23` }
    : { granularity: 'D', first: period.start_date, last: period.end_date };
}
