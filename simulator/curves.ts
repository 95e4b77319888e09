import { localCalendar } from '#core/quiet-hours';
import { type DeclineKind, PARAMETERS } from './parameters';

/** What the chance of an attempt depends on (docs/simulator.md, "Recovery curves"). */
export interface AttemptContext {
  readonly kind: DeclineKind;
  /** 1 for the first retry. */
  readonly attempt: number;
  readonly hoursSinceFailure: number;
  readonly daysToPayday: number;
  readonly daysSincePayday: number;
  /** 0-23 in the customer's time zone. */
  readonly localHour: number;
  /** 0 Sunday - 6 Saturday in the customer's time zone. */
  readonly weekday: number;
  /** A campaign message reached the customer within PARAMETERS.messageResponse.nudgeHours. */
  readonly nudged: boolean;
}

const isPayday = (year: number, month: number, day: number): boolean => day === 1 || day === 15 || day === new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Whole local days to the next payday (0 on a payday) and since the last one (0 on a payday): the 1st, the 15th, the month's last day. */
export function paydayDistance(at: Date, timezone: string): { toPayday: number; sincePayday: number } {
  const local = localCalendar(timezone, at);
  const today = Date.UTC(local.year, local.month - 1, local.day);
  const dayAt = (offset: number) => new Date(today + offset * 86_400_000);
  const payday = (offset: number) => {
    const d = dayAt(offset);
    return isPayday(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  };
  let toPayday = 0;
  while (!payday(toPayday)) toPayday += 1;
  let sincePayday = 0;
  while (!payday(-sincePayday)) sincePayday += 1;
  return { toPayday, sincePayday };
}

/** The context of an attempt at `at` of a payment that failed at `failedAt`, for a customer in `timezone`. */
export function contextOf(input: { kind: DeclineKind; attempt: number; at: Date; failedAt: Date; timezone: string; nudged: boolean }): AttemptContext {
  const local = localCalendar(input.timezone, input.at);
  const payday = paydayDistance(input.at, input.timezone);
  return {
    kind: input.kind,
    attempt: input.attempt,
    hoursSinceFailure: (input.at.getTime() - input.failedAt.getTime()) / 3_600_000,
    daysToPayday: payday.toPayday,
    daysSincePayday: payday.sincePayday,
    localHour: local.hour,
    weekday: local.weekday,
    nudged: input.nudged,
  };
}

/** P(the attempt succeeds | its context): the product of the factors in PARAMETERS.curves (see there). */
export function successProbability(context: AttemptContext): number {
  const curve = PARAMETERS.curves[context.kind];
  let p = curve.base * curve.decay ** Math.max(0, context.attempt - 1);
  if (context.hoursSinceFailure < curve.waitRampHours) p *= curve.earlyFactor;
  if (curve.payday) {
    const { payday } = PARAMETERS;
    if (context.daysSincePayday <= payday.sinceDays) p *= payday.sinceFactor;
    else if (context.daysToPayday <= payday.beforeDays) p *= payday.beforeFactor;
  }
  const hour = PARAMETERS.localHour.find(([from, to]) => context.localHour >= from && context.localHour < to);
  p *= hour?.[2] ?? 1;
  p *= PARAMETERS.weekday[context.weekday] ?? 1;
  if (context.nudged) p *= PARAMETERS.messageResponse.nudgeFactor;
  return Math.min(PARAMETERS.maxProbability, Math.max(0, p));
}
