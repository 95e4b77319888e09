import { resolvePeriod, rollupRangeOf, seriesBucketOf, seriesBuckets } from '#core/analytics/period';
import { InvalidRequestError } from '#core/errors';

const NOW = new Date('2026-11-25T15:30:00Z');

/** The `param` of the 400 a query gets, or undefined when it is accepted. */
function paramOf(query: Parameters<typeof resolvePeriod>[0]): string | undefined {
  try {
    resolvePeriod(query, NOW);
    return undefined;
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    return error.param;
  }
}

describe('resolvePeriod', () => {
  it('defaults to the 30 days ending today (UTC), by day', () => {
    // Act
    const period = resolvePeriod({}, NOW);
    // Assess
    expect(period).toEqual({ start_date: '2026-10-27', end_date: '2026-11-25', group_by: 'day' });
    expect(seriesBuckets(period)).toHaveLength(30);
  });

  it('counts the default start back from a given end_date', () => {
    // Act
    const period = resolvePeriod({ end_date: '2026-03-01', group_by: 'week' }, NOW);
    // Assess
    expect(period).toEqual({ start_date: '2026-01-31', end_date: '2026-03-01', group_by: 'week' });
  });

  it.each([
    ['a date that is not YYYY-MM-DD', { start_date: '2026-1-01' }, 'start_date'],
    ['a day that does not exist', { end_date: '2026-02-30' }, 'end_date'],
    ['a timestamp', { end_date: '2026-11-01T00:00' }, 'end_date'],
    ['an end before the start', { start_date: '2026-11-02', end_date: '2026-11-01' }, 'end_date'],
    ['an hourly range over two years', { start_date: '2024-01-01', end_date: '2026-01-02', group_by: 'hour' as const }, 'group_by'],
    ['any range over ten years', { start_date: '2010-01-01', end_date: '2026-01-01', group_by: 'month' as const }, 'start_date'],
  ])('refuses %s with a 400 naming the field', (_case, query, param) => {
    // Act, Assess
    expect(paramOf(query)).toBe(param);
  });

  it('accepts an hourly range of exactly 731 days', () => {
    // Act, Assess
    expect(paramOf({ start_date: '2024-01-01', end_date: '2025-12-31', group_by: 'hour' })).toBeUndefined();
  });
});

describe('series buckets', () => {
  it('labels hours, days, ISO weeks (their Monday) and months', () => {
    // Act, Assess
    expect(seriesBucketOf('2026-11-25T07', 'hour')).toBe('2026-11-25T07:00:00Z');
    expect(seriesBucketOf('2026-11-25T07', 'day')).toBe('2026-11-25');
    expect(seriesBucketOf('2026-11-25', 'week')).toBe('2026-11-23');
    expect(seriesBucketOf('2026-11-29', 'week')).toBe('2026-11-23');
    expect(seriesBucketOf('2026-11-30', 'week')).toBe('2026-11-30');
    expect(seriesBucketOf('2026-11-25', 'month')).toBe('2026-11');
  });

  it('lists every bucket of the period once, in order, with no gaps', () => {
    // Act
    const hours = seriesBuckets({ start_date: '2026-11-24', end_date: '2026-11-25', group_by: 'hour' });
    const weeks = seriesBuckets({ start_date: '2026-11-01', end_date: '2026-11-30', group_by: 'week' });
    const months = seriesBuckets({ start_date: '2026-10-15', end_date: '2027-01-02', group_by: 'month' });
    // Assess
    expect(hours).toHaveLength(48);
    expect(hours[0]).toBe('2026-11-24T00:00:00Z');
    expect(hours.at(-1)).toBe('2026-11-25T23:00:00Z');
    expect(weeks).toEqual(['2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23', '2026-11-30']);
    expect(months).toEqual(['2026-10', '2026-11', '2026-12', '2027-01']);
  });

  it('reads hour items for hourly series and day items otherwise', () => {
    // Act, Assess
    expect(rollupRangeOf({ start_date: '2026-11-24', end_date: '2026-11-25', group_by: 'hour' })).toEqual({
      granularity: 'H',
      first: '2026-11-24T00',
      last: '2026-11-25T23',
    });
    expect(rollupRangeOf({ start_date: '2026-11-01', end_date: '2026-11-30', group_by: 'month' })).toEqual({
      granularity: 'D',
      first: '2026-11-01',
      last: '2026-11-30',
    });
  });
});
