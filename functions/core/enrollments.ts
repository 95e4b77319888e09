import type { CampaignRecord, CampaignStep, CampaignStepAction } from '#core/campaigns/types';
import { type CardExpiry, type CustomerRecord, sameCardExpiry } from '#core/customers';
import { derivedIdBody } from '#core/derived-ids';
import { idBody } from '#core/ids';
import { type PaymentRecord, paymentBodyOf } from '#core/payments';
import { isQuietAt, localClock, type QuietHours } from '#core/quiet-hours';

/**
 * A payment's enrollment in a campaign (issue 11, the engine). One per payment: a payment is in at
 * most one campaign. `step_index` is the next step to run, due at `next_step_at` while `active`.
 *
 *   active → completed (its last step ran) | recovered (the payment was recovered) |
 *            stopped (payment terminal or erased, card updated, campaign archived or gone)
 */
export const ENROLLMENT_STATUSES = ['active', 'completed', 'stopped', 'recovered'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

/** One step the engine ran (or skipped), in the order it ran. */
export interface ExecutedStep {
  readonly index: number;
  readonly action: CampaignStepAction;
  readonly at: string;
  /** `message_queued`, `retry_queued`, `retry_deferred`, `retry_refused: …`, `skipped: …`. */
  readonly outcome: string;
  readonly message_id: string | null;
  /** Every message of the step, when it sent more than one (the customer's channel setting sent an email step on several channels); message_id is the first. */
  readonly message_ids?: readonly string[];
}

/**
 * What a customer-level enrollment is for (issue 16, the daily card-expiry and pre-dunning tasks):
 * a customer with no failed payment, enrolled for an occasion. `id` (`occ_<body>`) is derived
 * from the customer and the occasion (occasionIdFor), so the same occasion always names the same
 * enrollment item: one per customer and card expiry (or upcoming charge), however many runs.
 */
export type EnrollmentOccasion =
  | { readonly id: string; readonly kind: 'card_expiring'; readonly card_expiry: CardExpiry }
  | {
      readonly id: string;
      readonly kind: 'pre_dunning';
      readonly charge_id: string;
      readonly due_at: string;
      /** The upcoming charge's amount (smallest unit) and currency, for the notice's `{{amount}}` (messages.ts `charge`). */
      readonly amount?: number;
      readonly currency?: string;
    };

export interface EnrollmentRecord {
  readonly merchant_id: string;
  readonly campaign_id: string;
  /** The enrolled payment and its recovery; null for a customer-level enrollment (`occasion`). */
  readonly payment_id: string | null;
  readonly recovery_id: string | null;
  /** A customer-level enrollment's occasion; absent (or null) for a payment's enrollment. */
  readonly occasion?: EnrollmentOccasion | null;
  readonly customer_id: string;
  readonly status: EnrollmentStatus;
  /** The next step to run (0-based). */
  readonly step_index: number;
  /** When it is due (only while active), else null. */
  readonly next_step_at: string | null;
  readonly total_steps: number;
  /** Retry steps that handed over to the retry engine (capped by the campaign's max_attempts). */
  readonly retries_run: number;
  readonly enrolled_at: string;
  readonly ended_at: string | null;
  readonly end_reason: string | null;
  readonly steps: readonly ExecutedStep[];
  /**
   * The email A/B test arm the payment was assigned when it reached the campaign's first email
   * step while a test ran (its recovery then counts for that arm); absent otherwise.
   */
  readonly ab_test?: { readonly id: string; readonly arm: 'A' | 'B' } | null;
  /** Bumped by every write; the claim and the advance are conditional on it. */
  readonly version: number;
}

/** The hours a campaign's steps run in (start_hour and end_hour both allowed), crossing midnight when start > end. */
export interface SendWindow {
  readonly start_hour: number;
  readonly end_hour: number;
}

/** Whether a local hour lies in the window [start_hour, end_hour], both ends included. */
export function isInWindow(window: SendWindow, hour: number): boolean {
  return window.start_hour <= window.end_hour ? hour >= window.start_hour && hour <= window.end_hour : hour >= window.start_hour || hour <= window.end_hour;
}

/** Steps from one boundary to the next: a week of hours, more than any window and quiet period need. */
const MAX_STEPS = 24 * 7 * 2;

/** The next instant after `at` at which `timezone`'s local minute is 0 or 30 (offsets change on such boundaries). */
function nextBoundary(timezone: string, at: Date): Date {
  const clock = localClock(timezone, at);
  const toNext = (((clock.minute < 30 ? 30 : 60) - clock.minute) * 60 - clock.second) * 1000 - at.getUTCMilliseconds();
  return new Date(at.getTime() + toNext);
}

/**
 * The first instant at or after `earliest` when a campaign step may run: inside the campaign's
 * window in `timezone` (the customer's when known, else the merchant's quiet-hours zone, else
 * UTC) and outside the merchant's quiet hours (in their own zone). Walks half-hour boundaries of
 * the local clock, so DST changes and zones off by 30 minutes are the zones' own. When the two
 * never overlap (a window entirely inside the quiet hours), the first instant in the window: the
 * notifications consumer still holds a message until the quiet hours end.
 *
 * @example stepTimeFor(new Date('2026-03-01T03:00:00Z'), { start_hour: 9, end_hour: 21 }, 'UTC', quiet) // 2026-03-01T09:00:00.000Z
 */
export function stepTimeFor(earliest: Date, window: SendWindow, timezone: string, quiet: QuietHours): Date {
  let firstInWindow: Date | undefined;
  let at = earliest;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    if (isInWindow(window, localClock(timezone, at).hour)) {
      firstInWindow ??= at;
      if (!isQuietAt(quiet, at)) return at;
    }
    const mine = nextBoundary(timezone, at);
    const theirs = nextBoundary(quiet.timezone, at);
    at = mine.getTime() <= theirs.getTime() ? mine : theirs;
  }
  return firstInWindow ?? earliest;
}

const HOUR_MS = 3_600_000;

/** When step `index` of the campaign is due, counted from `from` (enrollment for the first step, the previous step's run after). */
export function stepDueAt(
  campaign: Pick<CampaignRecord, 'delay_hours' | 'steps' | 'start_hour' | 'end_hour'>,
  index: number,
  from: Date,
  timezone: string,
  quiet: QuietHours,
): Date {
  const step = campaign.steps[index] as CampaignStep;
  const hours = (index === 0 ? campaign.delay_hours : 0) + step.delay_hours;
  return stepTimeFor(new Date(from.getTime() + hours * HOUR_MS), campaign, timezone, quiet);
}

/** What the engine does with a due enrollment, decided from fresh state (decideStep). */
export type StepDecision =
  | { readonly kind: 'end'; readonly status: Exclude<EnrollmentStatus, 'active'>; readonly reason: string }
  | { readonly kind: 'postpone'; readonly until: Date; readonly reason: string }
  | { readonly kind: 'run'; readonly step: CampaignStep; readonly index: number };

/** A paused payment's step waits at least this long before it is looked at again. */
export const PAUSED_WAIT_HOURS = 1;

/**
 * The step state machine: from the enrollment, its campaign (undefined: deleted) and payment
 * (undefined: erased) as read now.
 * - payment recovered → end `recovered`; terminal or gone → end `stopped`;
 * - campaign gone or archived → end `stopped` (a paused campaign goes on: A's pause);
 * - payment paused → the step waits its own delay (at least an hour) and is looked at again;
 * - no step left → end `completed`; else run step `step_index`.
 */
export function decideStep(enrollment: EnrollmentRecord, campaign: CampaignRecord | undefined, payment: PaymentRecord | undefined, now: Date): StepDecision {
  if (payment === undefined) return { kind: 'end', status: 'stopped', reason: 'payment_erased' };
  if (payment.status === 'recovered') return { kind: 'end', status: 'recovered', reason: 'payment_recovered' };
  if (payment.status === 'terminal') return { kind: 'end', status: 'stopped', reason: 'payment_terminal' };
  if (campaign === undefined || campaign.status === 'archived') return { kind: 'end', status: 'stopped', reason: 'campaign_archived' };
  const step = campaign.steps[enrollment.step_index];
  if (step === undefined) return { kind: 'end', status: 'completed', reason: 'steps_done' };
  if (payment.status === 'paused') {
    const wait = Math.max(PAUSED_WAIT_HOURS, step.delay_hours);
    return { kind: 'postpone', until: new Date(now.getTime() + wait * HOUR_MS), reason: 'payment_paused' };
  }
  return { kind: 'run', step, index: enrollment.step_index };
}

/** The status each step shows in a recovery's detail (B): `done` once run, `skipped` when run without effect, else `pending`. */
export type StepStatus = 'done' | 'pending' | 'skipped';

export interface StepProgress {
  readonly index: number;
  readonly action: CampaignStepAction;
  readonly template_id: string | null;
  readonly delay_hours: number;
  readonly status: StepStatus;
  /** When it ran, or when it is due (the next step of an active enrollment); null for later ones. */
  readonly at: string | null;
  readonly outcome: string | null;
  readonly message_id: string | null;
}

/** Whether a step's outcome left it without effect. */
export const isSkippedOutcome = (outcome: string): boolean => outcome.startsWith('skipped') || outcome.startsWith('retry_refused');

/** Every step of the campaign with what happened to it in this enrollment. */
export function stepProgressOf(enrollment: EnrollmentRecord, steps: readonly CampaignStep[]): StepProgress[] {
  return steps.map((step, index) => {
    const ran = enrollment.steps.find((executed) => executed.index === index);
    const next = enrollment.status === 'active' && index === enrollment.step_index;
    return {
      index,
      action: step.action,
      template_id: step.template_id,
      delay_hours: step.delay_hours,
      status: ran === undefined ? (enrollment.status === 'active' ? 'pending' : 'skipped') : isSkippedOutcome(ran.outcome) ? 'skipped' : 'done',
      at: ran?.at ?? (next ? enrollment.next_step_at : null),
      outcome: ran?.outcome ?? null,
      message_id: ran?.message_id ?? null,
    };
  });
}

/** The recovery's 1-based current step (B): the next step to run, or the last one run once the enrollment ended (0: it ended before its first step). */
export const currentStepOf = (enrollment: EnrollmentRecord): number =>
  enrollment.status === 'active' ? Math.min(enrollment.step_index + 1, enrollment.total_steps) : Math.min(enrollment.step_index, enrollment.total_steps);

/**
 * The id of a customer-level enrollment's occasion: `occ_` and a body derived from the customer
 * and the occasion's key (derived-ids.ts), its time the occasion's own (the card's expiry month,
 * the charge's due time) so that a campaign's enrollments still list roughly in time order.
 * Deterministic: the daily task's put of the same occasion is the same item, and its
 * `attribute_not_exists` makes it once.
 *
 * @example occasionIdFor('cust_01…', 'card_expiring:2026-12', new Date('2026-12-01T00:00:00Z'))
 */
export const occasionIdFor = (customerId: string, key: string, at: Date): string => `occ_${derivedIdBody(at, customerId, key)}`;

export const occasionBodyOf = (id: string): string | undefined => idBody(id, 'occ');

/** The body of an enrollment's key: its payment's, or its occasion's (a customer-level enrollment). */
export function enrollmentBodyOf(enrollment: Pick<EnrollmentRecord, 'payment_id' | 'occasion'>): string {
  const body = enrollment.occasion ? occasionBodyOf(enrollment.occasion.id) : paymentBodyOf(enrollment.payment_id ?? '');
  if (body === undefined) throw new Error('An enrollment names neither a payment nor an occasion');
  return body;
}

/**
 * The step state machine of a customer-level enrollment (no payment), from its campaign and
 * customer as read now:
 * - customer gone (erased) → end `stopped` (`customer_erased`);
 * - a card-expiry notice whose card changed since (the customer's expiry is no longer the one it
 *   was enrolled for: updated or cleared) → end `stopped` (`card_updated`);
 * - a pre-dunning notice whose charge is due by now → end `stopped` (`charge_due`);
 * - campaign gone or archived → end `stopped`; no step left → end `completed`; else run the step.
 */
export function decideOccasionStep(
  enrollment: EnrollmentRecord,
  campaign: CampaignRecord | undefined,
  customer: CustomerRecord | undefined,
  now: Date,
): StepDecision {
  const occasion = enrollment.occasion as EnrollmentOccasion;
  if (customer === undefined) return { kind: 'end', status: 'stopped', reason: 'customer_erased' };
  if (occasion.kind === 'card_expiring' && !sameCardExpiry(customer.card_expiry, occasion.card_expiry))
    return { kind: 'end', status: 'stopped', reason: 'card_updated' };
  // A notice of an upcoming charge is moot once the charge is due: its outcome is the charge's (a failure enrolls the payment).
  if (occasion.kind === 'pre_dunning' && now.getTime() >= Date.parse(occasion.due_at)) return { kind: 'end', status: 'stopped', reason: 'charge_due' };
  if (campaign === undefined || campaign.status === 'archived') return { kind: 'end', status: 'stopped', reason: 'campaign_archived' };
  const step = campaign.steps[enrollment.step_index];
  if (step === undefined) return { kind: 'end', status: 'completed', reason: 'steps_done' };
  return { kind: 'run', step, index: enrollment.step_index };
}
