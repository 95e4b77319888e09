import fc from 'fast-check';
import { DEFAULT_QUIET_HOURS, type QuietHours, isQuietAt, isValidTimeZone, localClock, nextAllowedAt } from '#core/quiet-hours';

const quiet = (startHour: number, endHour: number, timezone: string, enabled = true): QuietHours => ({ startHour, endHour, timezone, enabled });
const at = (iso: string): Date => new Date(iso);
const iso = (date: Date): string => date.toISOString();

describe('isValidTimeZone', () => {
  it.each([
    'America/New_York',
    'Europe/London',
    'Asia/Kolkata',
    'Pacific/Auckland',
    'America/Argentina/Buenos_Aires',
    'America/Port-au-Prince',
    'Australia/Lord_Howe',
    'UTC',
  ])('accepts the IANA name %s', (timezone) => {
    // Act and assess
    expect(isValidTimeZone(timezone)).toBe(true);
  });

  it.each(['Etc/UTC', 'Etc/GMT+5', 'Asia/Calcutta', 'US/Eastern', 'Europe/Kiev'])('accepts the IANA link %s, which the runtime resolves', (timezone) => {
    // Act and assess
    expect(isValidTimeZone(timezone)).toBe(true);
  });

  it.each([
    ['an offset', '+02:00'],
    ['a negative offset', '-0500'],
    ['UTC with an offset', 'UTC+2'],
    ['an abbreviation', 'EST'],
    ['an abbreviation Intl also knows', 'CET'],
    ['GMT without an area', 'GMT'],
    ['a POSIX-style name', 'PST8PDT'],
    ['an unknown location', 'Europe/Atlantis'],
    ['an unknown area', 'Mars/Olympus_Mons'],
    ['a name with spaces', 'Europe/London '],
    ['an empty string', ''],
    ['a name longer than any zone', `America/${'x'.repeat(60)}`],
    ['a path traversal', '../etc/passwd'],
  ])('refuses %s (%p)', (_what, timezone) => {
    // Act and assess
    expect(isValidTimeZone(timezone)).toBe(false);
  });

  it.each([undefined, null, 5, {}])('refuses %p, which is not a string', (timezone) => {
    // Act and assess
    expect(isValidTimeZone(timezone)).toBe(false);
  });
});

describe('isQuietAt', () => {
  describe('a window crossing midnight, 22 → 7 in America/Los_Angeles (PST, UTC-8 in January)', () => {
    const window = quiet(22, 7, 'America/Los_Angeles');

    it.each([
      ['2026-01-15T05:59:59.999Z', '21:59:59.999, the last instant before the start hour', false],
      ['2026-01-15T06:00:00.000Z', '22:00, the start hour (inclusive)', true],
      ['2026-01-15T08:00:00.000Z', '00:00, midnight', true],
      ['2026-01-15T14:59:59.999Z', '06:59:59.999, the last quiet instant', true],
      ['2026-01-15T15:00:00.000Z', '07:00, the end hour (exclusive)', false],
      ['2026-01-15T20:00:00.000Z', '12:00, midday', false],
    ])('at %s (%s local) is quiet: %s', (instant, _local, expected) => {
      // Act and assess
      expect(isQuietAt(window, at(instant))).toBe(expected);
    });
  });

  describe('a window crossing midnight, 21 → 8 in Asia/Kolkata (UTC+05:30)', () => {
    const window = quiet(21, 8, 'Asia/Kolkata');

    it.each([
      ['2026-03-10T15:29:59.999Z', '20:59:59.999', false],
      ['2026-03-10T15:30:00.000Z', '21:00', true],
      ['2026-03-10T18:30:00.000Z', '00:00 of the 11th', true],
      ['2026-03-11T02:29:59.999Z', '07:59:59.999', true],
      ['2026-03-11T02:30:00.000Z', '08:00', false],
    ])('at %s (%s local) is quiet: %s', (instant, _local, expected) => {
      // Act and assess
      expect(isQuietAt(window, at(instant))).toBe(expected);
    });
  });

  describe('a window crossing midnight, 22 → 6 in Pacific/Auckland (across the date line)', () => {
    const window = quiet(22, 6, 'Pacific/Auckland');

    it.each([
      ['2026-01-20T08:59:59.999Z', '21:59:59.999 NZDT (UTC+13) on the 20th', false],
      ['2026-01-20T09:00:00.000Z', '22:00 NZDT on the 20th', true],
      ['2026-01-20T12:00:00.000Z', '01:00 NZDT on the 21st, while it is still the 20th in UTC', true],
      ['2026-01-20T16:59:59.999Z', '05:59:59.999 NZDT on the 21st', true],
      ['2026-01-20T17:00:00.000Z', '06:00 NZDT on the 21st', false],
      ['2026-07-20T10:00:00.000Z', '22:00 NZST (UTC+12) in winter', true],
      ['2026-07-20T09:59:59.999Z', '21:59:59.999 NZST in winter', false],
    ])('at %s (%s) is quiet: %s', (instant, _local, expected) => {
      // Act and assess
      expect(isQuietAt(window, at(instant))).toBe(expected);
    });
  });

  it.each([
    ['2026-06-01T06:59:59.999Z', false],
    ['2026-06-01T07:00:00.000Z', true],
    ['2026-06-01T14:59:59.999Z', true],
    ['2026-06-01T15:00:00.000Z', false],
  ])('treats a window within one day, 9 → 17 in Europe/Berlin (CEST, UTC+2), as quiet at %s: %s', (instant, expected) => {
    // Act and assess
    expect(isQuietAt(quiet(9, 17, 'Europe/Berlin'), at(instant))).toBe(expected);
  });

  it('is never quiet when start and end hour are equal (an empty window, not a whole day)', () => {
    // Prepare
    const hours = Array.from({ length: 24 }, (_, hour) => at(`2026-05-05T${String(hour).padStart(2, '0')}:30:00Z`));
    // Act and assess
    expect(hours.filter((instant) => isQuietAt(quiet(5, 5, 'UTC'), instant))).toEqual([]);
  });

  it('is never quiet when disabled, even inside the window', () => {
    // Prepare
    const instant = at('2026-01-15T08:00:00Z');
    // Act and assess
    expect(isQuietAt(quiet(22, 7, 'America/Los_Angeles'), instant)).toBe(true);
    expect(isQuietAt(quiet(22, 7, 'America/Los_Angeles', false), instant)).toBe(false);
    expect(isQuietAt(DEFAULT_QUIET_HOURS, at('2026-01-15T23:00:00Z'))).toBe(false);
  });

  it('counts a repeated hour on a fall-back day as quiet both times (America/New_York, 1 November 2026)', () => {
    // Prepare: 01:30 EDT is 05:30Z; after 02:00 EDT the clocks show 01:00 EST again (06:00Z).
    const window = quiet(22, 2, 'America/New_York');
    // Act and assess
    expect(isQuietAt(window, at('2026-11-01T05:30:00Z'))).toBe(true);
    expect(isQuietAt(window, at('2026-11-01T06:30:00Z'))).toBe(true);
    expect(isQuietAt(window, at('2026-11-01T07:00:00Z'))).toBe(false);
  });
});

describe('nextAllowedAt', () => {
  it('returns the instant itself when it is not quiet', () => {
    // Prepare
    const instant = at('2026-01-15T20:00:00.123Z');
    // Act
    const next = nextAllowedAt(quiet(22, 7, 'America/Los_Angeles'), instant);
    // Assess
    expect(iso(next)).toBe('2026-01-15T20:00:00.123Z');
    expect(next).not.toBe(instant);
  });

  it.each([
    ['disabled quiet hours', quiet(22, 7, 'America/Los_Angeles', false)],
    ['an empty window', quiet(3, 3, 'America/Los_Angeles')],
  ])('returns the instant itself for %s', (_what, window) => {
    // Act and assess
    expect(iso(nextAllowedAt(window, at('2026-01-15T08:00:00Z')))).toBe('2026-01-15T08:00:00.000Z');
  });

  it.each([
    ['America/Los_Angeles at 22:00 PST, the start hour', quiet(22, 7, 'America/Los_Angeles'), '2026-01-15T06:00:00.000Z', '2026-01-15T15:00:00.000Z'],
    ['America/Los_Angeles at 06:59:59.999 PST', quiet(22, 7, 'America/Los_Angeles'), '2026-01-15T14:59:59.999Z', '2026-01-15T15:00:00.000Z'],
    ['Asia/Kolkata at 00:17:13.250 IST, past midnight', quiet(21, 8, 'Asia/Kolkata'), '2026-03-10T18:47:13.250Z', '2026-03-11T02:30:00.000Z'],
    ['Asia/Kolkata at 21:00 IST, before midnight', quiet(21, 8, 'Asia/Kolkata'), '2026-03-10T15:30:00.000Z', '2026-03-11T02:30:00.000Z'],
    ['Pacific/Auckland at 01:00 NZDT on the 21st (the 20th in UTC)', quiet(22, 6, 'Pacific/Auckland'), '2026-01-20T12:00:00.000Z', '2026-01-20T17:00:00.000Z'],
    ['Pacific/Auckland at 23:15 NZST in winter', quiet(22, 6, 'Pacific/Auckland'), '2026-07-20T11:15:00.000Z', '2026-07-20T18:00:00.000Z'],
    ['Europe/London at 23:30 GMT in winter', quiet(22, 7, 'Europe/London'), '2026-01-10T23:30:00.000Z', '2026-01-11T07:00:00.000Z'],
    ['Europe/London at 23:30 BST in summer', quiet(22, 7, 'Europe/London'), '2026-07-10T22:30:00.000Z', '2026-07-11T06:00:00.000Z'],
    ['Europe/Berlin within one day, at 12:00 CEST', quiet(9, 17, 'Europe/Berlin'), '2026-06-01T10:00:00.000Z', '2026-06-01T15:00:00.000Z'],
    ['UTC, 0 → 23, at 00:00 (the longest window)', quiet(0, 23, 'UTC'), '2026-06-01T00:00:00.000Z', '2026-06-01T23:00:00.000Z'],
  ])('ends the window for %s', (_what, window, instant, expected) => {
    // Act
    const next = nextAllowedAt(window, at(instant));
    // Assess
    expect(iso(next)).toBe(expected);
    expect(isQuietAt(window, next)).toBe(false);
    expect(isQuietAt(window, new Date(next.getTime() - 1))).toBe(true);
  });

  describe('across DST changes', () => {
    it.each([
      // America/New_York springs forward on 8 March 2026: 02:00 EST becomes 03:00 EDT (07:00Z).
      [
        'New York spring forward: the window 22 → 7 is an hour shorter',
        quiet(22, 7, 'America/New_York'),
        '2026-03-08T04:00:00.000Z',
        '2026-03-08T11:00:00.000Z',
      ],
      [
        'New York spring forward: end hour 2 does not exist, so 03:00 EDT',
        quiet(22, 2, 'America/New_York'),
        '2026-03-08T06:30:00.000Z',
        '2026-03-08T07:00:00.000Z',
      ],
      [
        'New York spring forward: end hour 3 is the first hour after the gap',
        quiet(0, 3, 'America/New_York'),
        '2026-03-08T06:30:00.000Z',
        '2026-03-08T07:00:00.000Z',
      ],
      // It falls back on 1 November 2026: 02:00 EDT becomes 01:00 EST (06:00Z).
      ['New York fall back: the window 22 → 7 is an hour longer', quiet(22, 7, 'America/New_York'), '2026-11-01T03:00:00.000Z', '2026-11-01T12:00:00.000Z'],
      [
        'New York fall back: the repeated 01:00 hour stays quiet until 02:00 EST',
        quiet(22, 2, 'America/New_York'),
        '2026-11-01T05:30:00.000Z',
        '2026-11-01T07:00:00.000Z',
      ],
      // Europe/London springs forward on 29 March 2026: 01:00 GMT becomes 02:00 BST (01:00Z).
      ['London spring forward: end hour 1 does not exist, so 02:00 BST', quiet(23, 1, 'Europe/London'), '2026-03-29T00:30:00.000Z', '2026-03-29T01:00:00.000Z'],
      ['London spring forward: the window 22 → 7 ends at 07:00 BST', quiet(22, 7, 'Europe/London'), '2026-03-28T22:00:00.000Z', '2026-03-29T06:00:00.000Z'],
      // It falls back on 25 October 2026: 02:00 BST becomes 01:00 GMT (01:00Z).
      [
        'London fall back: 00:30 BST until 02:00 GMT, the repeated hour included',
        quiet(0, 2, 'Europe/London'),
        '2026-10-24T23:30:00.000Z',
        '2026-10-25T02:00:00.000Z',
      ],
      ['London fall back: the window 22 → 7 ends at 07:00 GMT', quiet(22, 7, 'Europe/London'), '2026-10-24T21:00:00.000Z', '2026-10-25T07:00:00.000Z'],
      // Pacific/Auckland falls back on 5 April 2026 (03:00 NZDT becomes 02:00 NZST, 14:00Z on the 4th).
      ['Auckland fall back: the window 22 → 6 ends at 06:00 NZST', quiet(22, 6, 'Pacific/Auckland'), '2026-04-04T10:00:00.000Z', '2026-04-04T18:00:00.000Z'],
    ])('%s', (_what, window, instant, expected) => {
      // Act
      const next = nextAllowedAt(window, at(instant));
      // Assess
      expect(iso(next)).toBe(expected);
      expect(isQuietAt(window, next)).toBe(false);
      expect(isQuietAt(window, new Date(next.getTime() - 1))).toBe(true);
    });

    it('ends on the first instant whose local hour is past a skipped end hour (local clock reads 03:00)', () => {
      // Act
      const next = nextAllowedAt(quiet(22, 2, 'America/New_York'), at('2026-03-08T06:30:00Z'));
      // Assess
      expect(localClock('America/New_York', next)).toEqual({ hour: 3, minute: 0, second: 0 });
    });
  });

  it('returns the end of the window for any instant inside it, in zones with whole, half and quarter-hour offsets and DST', () => {
    // Prepare
    const zones = [
      'UTC',
      'America/Los_Angeles',
      'America/New_York',
      'Europe/London',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Pacific/Auckland',
      'Australia/Lord_Howe',
      'America/St_Johns',
    ];
    const instants = fc.date({ min: at('2024-01-01T00:00:00Z'), max: at('2030-12-31T00:00:00Z'), noInvalidDate: true });
    // Act and assess
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 23 }),
        fc.constantFrom(...zones),
        instants,
        (startHour, endHour, timezone, instant) => {
          const window = quiet(startHour, endHour, timezone);
          const next = nextAllowedAt(window, instant);
          expect(next.getTime()).toBeGreaterThanOrEqual(instant.getTime());
          expect(next.getTime() - instant.getTime()).toBeLessThanOrEqual(25 * 3_600_000);
          expect(isQuietAt(window, next)).toBe(false);
          if (next.getTime() > instant.getTime()) {
            // Quiet right up to the end, which is on a local hour (or half hour, when DST shifts by 30 minutes).
            expect(isQuietAt(window, new Date(next.getTime() - 1))).toBe(true);
            expect(isQuietAt(window, instant)).toBe(true);
            const clock = localClock(timezone, next);
            expect([0, 30]).toContain(clock.minute);
            expect([clock.second, next.getUTCMilliseconds()]).toEqual([0, 0]);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
