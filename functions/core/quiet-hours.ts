/**
 * Quiet hours (spec, Quiet hours: "during quiet hours no retries or dunning messages are sent"):
 * a window of whole local hours in the merchant's IANA time zone. Pure: no AWS, no clock of its
 * own; the retry policy and dunning ask it about an instant.
 *
 * - The window is [startHour:00, endHour:00) local time: the start hour is quiet, the end hour is
 *   not. When startHour > endHour the window crosses midnight (22 → 7 is 22:00-06:59 local).
 * - startHour === endHour is an empty window: no quiet period at all (never "all day").
 * - Disabled quiet hours are never quiet.
 * - Local time comes from Intl (the runtime's tz database), so DST changes are the zone's own: on
 *   a spring-forward day a local hour that does not exist is skipped (the window ends at the first
 *   instant whose local hour is at or after endHour), and on a fall-back day a repeated local hour
 *   is quiet both times it occurs if it is inside the window.
 */
export interface QuietHours {
  /** 0-23: the first quiet local hour. */
  readonly startHour: number;
  /** 0-23: the first local hour after the window (not quiet). */
  readonly endHour: number;
  /** An IANA time zone name (`isValidTimeZone`). */
  readonly timezone: string;
  readonly enabled: boolean;
}

/** What a merchant has before setting anything: a 22:00-07:00 UTC window, switched off. */
export const DEFAULT_QUIET_HOURS: QuietHours = { startHour: 22, endHour: 7, timezone: 'UTC', enabled: false };

/** Longest time zone name accepted (the longest IANA name, America/Argentina/ComodRivadavia, is 32). */
export const MAX_TIME_ZONE_LENGTH = 64;

/** `Area/Location[/More]` as the tz database spells its names: letters first, no offsets. */
const AREA_LOCATION = /^[A-Za-z][A-Za-z_-]*(?:\/[A-Za-z0-9_+-]+)+$/;

const formatters = new Map<string, Intl.DateTimeFormat>();
const validity = new Map<string, boolean>();
let canonical: ReadonlySet<string> | undefined;

function canonicalNames(): ReadonlySet<string> {
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  return canonical;
}

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

/**
 * Whether `timezone` is an IANA time zone name the runtime knows:
 * - every name of `Intl.supportedValuesOf('timeZone')` (the canonical names), and `UTC`;
 * - the tz database's other `Area/Location` names (links) the runtime resolves, such as
 *   `Etc/UTC`, `Asia/Calcutta`, `US/Eastern` or `Europe/Kiev`: merchants' systems still send them;
 * - matched as ECMA-402 matches them, ignoring case; the name is kept as sent.
 * Refused: UTC offsets (`+02:00`, `UTC+2`), abbreviations and POSIX-style legacy names without an
 * area (`EST`, `CET`, `GMT`, `PST8PDT`, which mean different things to different readers), and
 * anything the runtime does not know.
 */
export function isValidTimeZone(timezone: unknown): timezone is string {
  if (typeof timezone !== 'string' || timezone.length === 0 || timezone.length > MAX_TIME_ZONE_LENGTH) return false;
  if (timezone === 'UTC' || canonicalNames().has(timezone)) return true;
  const known = validity.get(timezone);
  if (known !== undefined) return known;
  let valid = AREA_LOCATION.test(timezone);
  if (valid) {
    try {
      formatterFor(timezone);
    } catch {
      valid = false;
    }
  }
  // Bounded: only names that pass the syntax check can be remembered as valid, and invalid ones
  // are few distinct strings per process in practice; cap the memo anyway.
  if (validity.size < 1000) validity.set(timezone, valid);
  return valid;
}

interface LocalClock {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** The wall-clock time at `instant` in `timezone` (hours 0-23). */
export function localClock(timezone: string, instant: Date): LocalClock {
  const parts = formatterFor(timezone).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  // hourCycle h23 gives 0-23; `% 24` guards runtimes that still print midnight as 24.
  return { hour: part('hour') % 24, minute: part('minute'), second: part('second') };
}

const calendars = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The local calendar at an instant: the date (month 1-12), the weekday (0 Sunday - 6 Saturday) and the hour (0-23). */
export interface LocalCalendar {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly weekday: number;
  readonly hour: number;
}

/** The local date, weekday and hour at `instant` in `timezone` (a valid IANA name: isValidTimeZone). */
export function localCalendar(timezone: string, instant: Date): LocalCalendar {
  let format = calendars.get(timezone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: 'numeric',
    });
    calendars.set(timezone, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(part('year')),
    month: Number(part('month')),
    day: Number(part('day')),
    weekday: WEEKDAYS.indexOf(part('weekday')),
    hour: Number(part('hour')) % 24,
  };
}

/** Whether a local hour lies in the window [startHour, endHour), crossing midnight when start > end. */
export function isQuietHour(q: Pick<QuietHours, 'startHour' | 'endHour'>, hour: number): boolean {
  if (q.startHour === q.endHour) return false;
  return q.startHour < q.endHour ? hour >= q.startHour && hour < q.endHour : hour >= q.startHour || hour < q.endHour;
}

/** Whether `instant` falls in the merchant's quiet hours. */
export function isQuietAt(q: QuietHours, instant: Date): boolean {
  if (!q.enabled || q.startHour === q.endHour) return false;
  return isQuietHour(q, localClock(q.timezone, instant).hour);
}

/** A window is at most 23 hours, plus one repeated hour on a fall-back day. */
const MAX_STEPS = 48;

/**
 * The first instant at or after `instant` outside the quiet hours: `instant` itself when it is
 * not quiet, else the end of the window, the first instant whose local time is endHour:00 (or,
 * when a DST change skips that hour, the first instant whose local hour is past it). Steps from
 * one local hour boundary to the next, so it follows the zone's offset changes (which happen on
 * local hour or half-hour boundaries, and each step re-reads the local clock).
 *
 * @example nextAllowedAt({ startHour: 22, endHour: 7, timezone: 'Europe/London', enabled: true }, new Date('2026-01-10T23:30:00Z')) // 2026-01-11T07:00:00.000Z
 */
export function nextAllowedAt(q: QuietHours, instant: Date): Date {
  let at = new Date(instant.getTime());
  for (let step = 0; step < MAX_STEPS; step += 1) {
    if (!isQuietAt(q, at)) return at;
    const clock = localClock(q.timezone, at);
    const toNextHour = ((60 - clock.minute) * 60 - clock.second) * 1000 - at.getUTCMilliseconds();
    at = new Date(at.getTime() + toNextHour);
  }
  throw new Error(`Quiet hours ${q.startHour}-${q.endHour} ${q.timezone} do not end within ${MAX_STEPS} hours of ${instant.toISOString()}`);
}
