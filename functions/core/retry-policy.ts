import { type CardLedger, checkCardCaps } from './card-caps';
import { classifyDecline } from './decline-codes';
import type { PaymentRecord } from './payments';
import { isQuietAt, isValidTimeZone, localCalendar, localClock, nextAllowedAt, type QuietHours } from './quiet-hours';
import type { RetryTimingSetting } from './experiments/experiment';
import type { RetryScore, RetryScoreInput } from './scoring/types';

/**
 * The retry policy (pure): whether and when a failed payment is attempted again. Every decision
 * carries its reason, which the engine writes into the payment's state_history.
 *
 * In order, the first rule that decides wins:
 * 1. The decline, classified again from what the payment holds (DESIGN §2b precedence): a
 *    do-not-retry signal (Visa category 1, MAC 03/21, Stripe do_not_try_again) or a terminal
 *    category stops. A hard_customer decline is never retried before a card update: the payment
 *    waits (`awaiting_card_update`, set when the decline is recorded) and reaches the policy only
 *    with the new card.
 * 2. max_retries reached: stop.
 * 3. The wait: a Mastercard advice code 24-30 fixes it exactly; a new card after a hard decline is
 *    tried within the hour; else the campaign's retry step for this attempt when a campaign owns
 *    the recovery; else the scorer's delay (the same rules
 *    scorer as POST /scoring/retry: processing errors within hours, limits in days, insufficient
 *    funds on a ladder of days but on the payday whenever it comes sooner). Insufficient-funds retries are then moved to the start of the
 *    next local morning window (07:00-09:00), when balances are highest after overnight payroll
 *    runs. "Local" is the customer's time zone when ingest was told it (`customer_timezone`), else
 *    the merchant's quiet-hours zone, else UTC (policyTimeZoneOf): paydays, mornings and the
 *    scorer's hour and weekday are all read there.
 * 4. The merchant's quiet hours (in its IANA time zone) push the time to the window's end.
 * 5. The card-network caps, counted per card over every payment on it (core/card-caps.ts), push
 *    it to the first moment another attempt is allowed; a card blocked after a do-not-retry
 *    answer waits for a card update. Quiet hours and caps are re-applied until both hold.
 */
export type RetryPlan =
  | { readonly action: 'schedule'; readonly at: Date; readonly reason: string }
  | { readonly action: 'await_card_update'; readonly reason: string }
  | { readonly action: 'stop'; readonly reason: string };

export type PlannedPayment = Pick<
  PaymentRecord,
  | 'psp'
  | 'amount'
  | 'currency'
  | 'decline_code'
  | 'decline_category'
  | 'decline_subcategory'
  | 'retry_count'
  | 'max_retries'
  | 'card_network'
  | 'network_code'
  | 'advice_code'
  | 'created_at'
  | 'customer_timezone'
>;

export interface RetryPlanInput {
  readonly payment: PlannedPayment;
  /** When the decision is made; the wait counts from here. */
  readonly now: Date;
  readonly quietHours: QuietHours | undefined;
  readonly ledger: CardLedger;
  /** The scorer's answer for the next attempt (retryScoreInputOf). */
  readonly score: RetryScore;
  /** The wait the owning campaign's retry step sets for this attempt, when a campaign owns the recovery. */
  readonly campaignStepDelayHours?: number;
  /**
   * The merchant's retry timing (a promoted experiment winner or an applied suggestion, or the
   * customer's variant of a running retry-timing experiment): decline codes it stops, a wait that
   * replaces the scorer's, and payday alignment of insufficient-funds retries. Never beyond the
   * network rules: a fixed wait and the caps still apply.
   */
  readonly retryTiming?: RetryTimingSetting;
}

const HOUR_MS = 3_600_000;
/** Insufficient-funds retries go out in this local window (see 3. above). */
const MORNING_WINDOW = { startHour: 7, endHour: 9 } as const;
/** After a card update (a hard_customer decline), the new card is tried this soon. */
const CARD_UPDATE_WAIT_HOURS = 1;
/** Quiet hours and caps can move a time at most this many times before the plan gives up on precision. */
const MAX_ADJUSTMENTS = 8;

/**
 * The time zone the policy reads local time in: the customer's (`customer_timezone`, recorded from
 * ingest) when known, else the merchant's quiet-hours zone, else UTC.
 */
export function policyTimeZoneOf(payment: Pick<PlannedPayment, 'customer_timezone'>, quietHours: QuietHours | undefined): string {
  const own = payment.customer_timezone;
  return own !== undefined && isValidTimeZone(own) ? own : (quietHours?.timezone ?? 'UTC');
}

/** The classification of the payment's decline as the policy reads it. */
function declineOf(payment: PlannedPayment) {
  return classifyDecline({
    psp: payment.psp,
    ...(payment.decline_code === null ? {} : { declineCode: payment.decline_code }),
    ...(payment.network_code === null ? {} : { networkCode: payment.network_code }),
    ...(payment.card_network === null ? {} : { network: payment.card_network }),
    ...(payment.advice_code === null ? {} : { adviceCode: payment.advice_code }),
  });
}

/**
 * Whole days from `now` to the next common payday at least a day away, by the calendar of
 * `timezone` (UTC unless given): the 1st, the 15th or the last day of a month, when most salaries
 * and benefits are paid in the US and Europe.
 */
export function daysToNextPayday(now: Date, timezone = 'UTC'): number {
  const local = localCalendar(timezone, now);
  const today = Date.UTC(local.year, local.month - 1, local.day);
  for (let days = 1; ; days += 1) {
    const day = new Date(today + days * 24 * HOUR_MS);
    const lastOfMonth = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 0)).getUTCDate();
    if (day.getUTCDate() === 1 || day.getUTCDate() === 15 || day.getUTCDate() === lastOfMonth) return days;
  }
}

/** The start (local midnight in `timezone`, UTC unless given) of the next payday at least a day after `now` (daysToNextPayday). */
export function nextPaydayStart(now: Date, timezone = 'UTC'): Date {
  // Local noon of the payday first: a daylight-saving change on the way moves it by an hour, never off the day.
  const noon = new Date(now.getTime() + (daysToNextPayday(now, timezone) * 24 + 12 - localCalendar(timezone, now).hour) * HOUR_MS);
  const clock = localClock(timezone, noon);
  return new Date(noon.getTime() - ((clock.hour * 60 + clock.minute) * 60 + clock.second) * 1000 - noon.getUTCMilliseconds());
}

/** The scorer's input for the payment's next attempt at `now`, its hour, weekday and payday read in `timezone` (UTC unless given: policyTimeZoneOf). */
export function retryScoreInputOf(payment: PlannedPayment, now: Date, timezone = 'UTC'): RetryScoreInput {
  const local = localCalendar(timezone, now);
  return {
    declineCode: payment.decline_code ?? 'unknown',
    amountCents: payment.amount,
    currency: payment.currency,
    declineCategory: payment.decline_category,
    declineSubcategory: payment.decline_subcategory,
    psp: payment.psp,
    ...(payment.network_code === null ? {} : { networkCode: payment.network_code }),
    ...(payment.card_network === null ? {} : { network: payment.card_network }),
    ...(payment.advice_code === null ? {} : { adviceCode: payment.advice_code }),
    attemptNumber: payment.retry_count + 1,
    hourOfDay: local.hour,
    dayOfWeek: local.weekday,
    daysSinceFailure: Math.max(0, Math.floor((now.getTime() - Date.parse(payment.created_at)) / (24 * HOUR_MS))),
    paydayProximityDays: daysToNextPayday(now, timezone),
  };
}

/**
 * Why the policy does not retry now, or undefined when it may (rules 1-2 only). A hard_customer
 * decline reaches the policy only once the card was updated (until then the payment waits, out
 * of the policy's hands: `awaiting_card_update`), so it no longer forbids a retry of the new card.
 */
export function retryForbiddenBy(payment: PlannedPayment): Exclude<RetryPlan, { action: 'schedule' }> | undefined {
  const decline = declineOf(payment);
  if (!decline.retry.allowed && decline.category !== 'hard_customer') return { action: 'stop', reason: `Not retried: ${decline.retry.reason}` };
  if (payment.retry_count >= payment.max_retries) return { action: 'stop', reason: `Not retried: all ${payment.max_retries} retries were used` };
  return undefined;
}

/** Decides the next attempt of an open payment (see the rules above). */
export function planNextRetry(input: RetryPlanInput): RetryPlan {
  const { payment, now } = input;
  const forbidden = retryForbiddenBy(payment);
  if (forbidden !== undefined) return forbidden;

  const timing = input.retryTiming ?? {};
  if (payment.decline_code !== null && timing.stop_decline_codes?.includes(payment.decline_code)) {
    return { action: 'stop', reason: `Not retried: the merchant's recovery strategy stops retrying ${payment.decline_code}` };
  }
  const decline = declineOf(payment);
  const timezone = policyTimeZoneOf(payment, input.quietHours);
  const reasons: string[] = [];
  let waitHours: number;
  if (decline.retry.fixedDelayHours !== undefined) {
    waitHours = decline.retry.fixedDelayHours;
    reasons.push(`the network fixes the wait at ${waitHours} h (${decline.retry.reason})`);
  } else if (decline.category === 'hard_customer') {
    waitHours = CARD_UPDATE_WAIT_HOURS;
    reasons.push(`the card was updated after a ${decline.subcategory} decline: the new card is tried within ${waitHours} h`);
  } else if (input.campaignStepDelayHours !== undefined) {
    waitHours = input.campaignStepDelayHours;
    reasons.push(`the campaign's retry step ${payment.retry_count + 1} waits ${waitHours} h`);
  } else if (timing.delay_hours !== undefined) {
    waitHours = timing.delay_hours;
    reasons.push(`the merchant's retry timing waits ${waitHours} h`);
  } else {
    waitHours = input.score.delayHours;
    reasons.push(`scored ${input.score.score.toFixed(2)}, wait ${waitHours} h (${input.score.reasoning})`);
  }
  let at = new Date(now.getTime() + waitHours * HOUR_MS);
  if (timing.payday_aligned === true && payment.decline_subcategory === 'balance' && decline.retry.fixedDelayHours === undefined) {
    // The payday itself, not the scorer's whole days from now (which land past the morning window, on the day after).
    at = nextPaydayStart(now, timezone);
    reasons.push(`on the next payday (${at.toISOString().slice(0, 10)}) by the merchant's retry timing`);
  }
  if (payment.decline_subcategory === 'balance' && decline.retry.fixedDelayHours === undefined) {
    const morning = nextAllowedAt({ ...MORNING_WINDOW, startHour: MORNING_WINDOW.endHour, endHour: MORNING_WINDOW.startHour, timezone, enabled: true }, at);
    if (morning.getTime() !== at.getTime())
      reasons.push(`moved to the local morning (${MORNING_WINDOW.startHour}:00-${MORNING_WINDOW.endHour}:00 ${timezone}) for an insufficient-funds decline`);
    at = morning;
  }
  const adjusted = withinQuietHoursAndCaps(payment, input.quietHours, input.ledger, at, reasons);
  if (adjusted.action !== 'schedule') return adjusted;
  return {
    action: 'schedule',
    at: adjusted.at,
    reason: `Retry ${payment.retry_count + 1} of ${payment.max_retries} at ${adjusted.at.toISOString()}: ${reasons.join('; ')}`,
  };
}

/**
 * The first instant at or after `at` outside the merchant's quiet hours and within the card's
 * caps (or the card update to wait for). `reasons` gets a note for each move.
 */
export function withinQuietHoursAndCaps(
  payment: Pick<PlannedPayment, 'amount' | 'currency' | 'card_network'>,
  quietHours: QuietHours | undefined,
  ledger: CardLedger,
  at: Date,
  reasons: string[],
): RetryPlan {
  let candidate = at;
  for (let round = 0; round < MAX_ADJUSTMENTS; round += 1) {
    if (quietHours !== undefined && isQuietAt(quietHours, candidate)) {
      candidate = nextAllowedAt(quietHours, candidate);
      reasons.push(`after the merchant's quiet hours (${quietHours.startHour}:00-${quietHours.endHour}:00 ${quietHours.timezone})`);
    }
    const caps = checkCardCaps(ledger, payment.card_network, payment, candidate);
    if (caps.allowed) return { action: 'schedule', at: candidate, reason: reasons.join('; ') };
    if (caps.blocked) return { action: 'await_card_update', reason: `Waiting for a card update: ${caps.reason}` };
    candidate = caps.nextAllowedAt;
    reasons.push(`after the ${caps.reason}`);
  }
  return { action: 'schedule', at: candidate, reason: reasons.join('; ') };
}
