import type { CancelFlowOffer, CancelFlowStep, OfferType } from './cancel-flows';
import { InvalidRequestError, StateConflictError, ValidationError } from './errors';

/**
 * The cancel-session state machine (docs/cancel-flows.md, "Session states"), free of storage:
 *
 * | state | trigger | next state | also |
 * |---|---|---|---|
 * | (none) | start | in_progress | current_step = the flow's first step (offers the customer may no longer accept are skipped) |
 * | in_progress | advance a survey (selected_reason) | in_progress | the option's branch (an offer step) when it has one, else the next step |
 * | in_progress | advance an offer, declined | in_progress | the next step |
 * | in_progress | advance an offer, accepted | completed | outcome saved_discount, saved_pause or saved_other (by the offer type); one redemption counted |
 * | in_progress | advance a confirm or custom step | in_progress | the next step (current_step null after the last one) |
 * | in_progress | complete (outcome) | completed | saved_discount / saved_pause only while the current step is such an offer (it is accepted) |
 * | in_progress | 24 h pass | expired | the token answers 404 |
 * | completed | advance, complete | completed | 409 state_conflict: a session completes once |
 * | completed (not abandoned) | 30 days pass (daily task) | completed | save_window_closed; a saved one gets save_status confirmed or lost |
 */
export const SESSION_OUTCOMES = ['cancelled', 'saved_discount', 'saved_pause', 'saved_other', 'abandoned'] as const;
export type SessionOutcome = (typeof SESSION_OUTCOMES)[number];

export const SESSION_STATES = ['in_progress', 'completed', 'expired'] as const;
export type SessionState = (typeof SESSION_STATES)[number];
/** What is stored: `expired` is `in_progress` past `expires_at`. */
export type StoredSessionState = Exclude<SessionState, 'expired'>;

export const SAVE_STATUSES = ['pending', 'confirmed', 'lost'] as const;
export type SaveStatus = (typeof SAVE_STATUSES)[number];

/** A session's token is valid this long after the start (DESIGN §1). */
export const SESSION_TTL_MS = 24 * 3600 * 1000;
/** A save counts when the customer is still subscribed this many days after the session completed. */
export const SAVE_WINDOW_DAYS = 30;

export interface SessionAnswer {
  readonly step_id: string;
  readonly step_type: CancelFlowStep['step_type'];
  readonly selected_reason: string | null;
  readonly accepted: boolean | null;
  readonly response: Readonly<Record<string, unknown>> | null;
  readonly at: string;
}

export interface AcceptedOffer extends CancelFlowOffer {
  readonly step_id: string;
}

export interface CancelSessionRecord {
  readonly id: string;
  readonly merchant_id: string;
  readonly customer_id: string;
  readonly subscription_id: string | null;
  readonly flow_id: string;
  /** The flow's steps when the session started: later edits of the flow do not change a running session. */
  readonly steps: readonly CancelFlowStep[];
  readonly state: StoredSessionState;
  /** The step the customer is on; null once every step is passed (only completing is left). */
  readonly current_step: string | null;
  readonly answers: readonly SessionAnswer[];
  readonly accepted_offer: AcceptedOffer | null;
  readonly outcome: SessionOutcome | null;
  readonly reason: string | null;
  readonly feedback: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly expires_at: string;
  readonly completed_at: string | null;
  /** Saved sessions: pending until the 30-day re-check, then confirmed or lost; null otherwise. */
  readonly save_status: SaveStatus | null;
  /** Completed, not abandoned, and its 30 days are over (re-checked): counted in the save rate's denominator. */
  readonly save_window_closed: boolean;
  readonly version: number;
}

export interface AdvanceInput {
  readonly selected_reason?: string | undefined;
  readonly response?: Readonly<Record<string, unknown>> | undefined;
}

export interface CompleteInput {
  readonly outcome: SessionOutcome;
  readonly reason?: string | undefined;
  readonly feedback?: string | undefined;
}

/** The session after a transition, and the offer it accepted (whose redemption the caller counts in the same write). */
export interface Transition {
  readonly session: CancelSessionRecord;
  readonly accepted: AcceptedOffer | null;
}

export function sessionState(session: Pick<CancelSessionRecord, 'state' | 'expires_at'>, now: Date): SessionState {
  return session.state === 'in_progress' && now.getTime() >= Date.parse(session.expires_at) ? 'expired' : session.state;
}

export const outcomeOfOffer = (type: OfferType): SessionOutcome => (type === 'discount' ? 'saved_discount' : type === 'pause' ? 'saved_pause' : 'saved_other');
export const isSaved = (outcome: SessionOutcome | null): boolean => outcome?.startsWith('saved_') === true;

/**
 * The first step at or after `from` that the customer may see: an offer step in `exhausted` (the
 * customer reached its redemption cap) is skipped. Null past the last step.
 */
export function firstVisibleStep(steps: readonly CancelFlowStep[], from: number, exhausted: ReadonlySet<string>): string | null {
  for (let index = from; index < steps.length; index += 1) {
    const step = steps[index];
    if (step !== undefined && !(step.step_type === 'offer' && exhausted.has(step.id))) return step.id;
  }
  return null;
}

function currentStepOf(session: CancelSessionRecord): { step: CancelFlowStep; index: number } {
  if (session.state === 'completed') throw new StateConflictError('This cancel session is already completed.', { param: 'token' });
  const index = session.steps.findIndex((step) => step.id === session.current_step);
  const step = session.steps[index];
  if (step === undefined) throw new StateConflictError('Every step of this session is done: complete it with an outcome.', { param: 'token' });
  return { step, index };
}

function offerDecision(response: AdvanceInput['response']): boolean {
  const accepted = response?.accepted;
  if (accepted === undefined)
    throw new InvalidRequestError('An offer step needs response.accepted (true to accept the offer, false to decline it).', { param: 'response.accepted' });
  if (typeof accepted !== 'boolean') throw new ValidationError('response.accepted must be true or false.', { param: 'response.accepted' });
  return accepted;
}

function completed(session: CancelSessionRecord, outcome: SessionOutcome, extra: Partial<CancelSessionRecord>, now: Date): CancelSessionRecord {
  return {
    ...session,
    ...extra,
    state: 'completed',
    outcome,
    completed_at: now.toISOString(),
    updated_at: now.toISOString(),
    save_status: isSaved(outcome) ? 'pending' : null,
    version: session.version + 1,
  };
}

/**
 * Advances an in-progress session by the answer to its current step. `exhausted`: the offer
 * steps whose redemption cap the customer has reached (skipped when the session moves on).
 */
export function advanceSession(session: CancelSessionRecord, input: AdvanceInput, exhausted: ReadonlySet<string>, now: Date): Transition {
  const { step, index } = currentStepOf(session);
  const at = now.toISOString();
  const answer = (fields: Partial<SessionAnswer>): SessionAnswer => ({
    step_id: step.id,
    step_type: step.step_type,
    selected_reason: null,
    accepted: null,
    response: input.response ?? null,
    at,
    ...fields,
  });
  let next = firstVisibleStep(session.steps, index + 1, exhausted);
  let recorded: SessionAnswer;
  if (step.step_type === 'survey') {
    const reason = input.selected_reason;
    if (reason === undefined)
      throw new InvalidRequestError('A survey step needs selected_reason: the value of one of its options.', { param: 'selected_reason' });
    const option = step.options.find((candidate) => candidate.value === reason);
    if (option === undefined)
      throw new ValidationError(`selected_reason must be one of: ${step.options.map((o) => o.value).join(', ')}.`, { param: 'selected_reason' });
    if (option.next_step !== null && !exhausted.has(option.next_step)) next = option.next_step;
    recorded = answer({ selected_reason: reason });
  } else if (step.step_type === 'offer' && step.offer !== null) {
    const accepted = offerDecision(input.response);
    recorded = answer({ accepted });
    if (accepted) {
      const offer: AcceptedOffer = { ...step.offer, step_id: step.id };
      const reason = session.answers.findLast((a) => a.selected_reason !== null)?.selected_reason ?? null;
      return {
        session: completed(
          session,
          outcomeOfOffer(step.offer.type),
          { answers: [...session.answers, recorded], accepted_offer: offer, current_step: null, reason },
          now,
        ),
        accepted: offer,
      };
    }
  } else {
    recorded = answer({});
  }
  return {
    session: { ...session, current_step: next, answers: [...session.answers, recorded], updated_at: at, version: session.version + 1 },
    accepted: null,
  };
}

/**
 * Completes an in-progress session with an outcome. saved_discount and saved_pause are what
 * accepting such an offer gives: allowed only while the current step is an offer of that type,
 * which is then accepted (a redemption counted). saved_other accepts the current downgrade or
 * custom offer when there is one, and otherwise records a save made another way.
 */
export function completeSession(session: CancelSessionRecord, input: CompleteInput, now: Date): Transition {
  if (session.state === 'completed') throw new StateConflictError('This cancel session is already completed.', { param: 'token' });
  const step = session.steps.find((candidate) => candidate.id === session.current_step);
  const offer = step?.step_type === 'offer' && step.offer !== null ? step.offer : null;
  const offerOutcome = offer === null ? null : outcomeOfOffer(offer.type);
  if ((input.outcome === 'saved_discount' || input.outcome === 'saved_pause') && offerOutcome !== input.outcome) {
    throw new ValidationError(
      `${input.outcome} is the outcome of accepting a ${input.outcome === 'saved_discount' ? 'discount' : 'pause'} offer, and the current step is not one.`,
      {
        param: 'outcome',
      },
    );
  }
  const accepted: AcceptedOffer | null = offer !== null && step !== undefined && offerOutcome === input.outcome ? { ...offer, step_id: step.id } : null;
  const lastReason = session.answers.findLast((a) => a.selected_reason !== null)?.selected_reason ?? null;
  return {
    session: completed(
      session,
      input.outcome,
      { accepted_offer: accepted, current_step: null, reason: input.reason ?? lastReason, feedback: input.feedback ?? null },
      now,
    ),
    accepted,
  };
}

/** Whether the 30-day re-check applies to a completed session (abandoned ones are reported apart). */
export const needsSaveRecheck = (session: Pick<CancelSessionRecord, 'state' | 'outcome'>): boolean =>
  session.state === 'completed' && session.outcome !== null && session.outcome !== 'abandoned';

/** The day (UTC, YYYY-MM-DD) a completed session's save window closes. */
export function saveWindowClosesOn(completedAt: string): string {
  return new Date(Date.parse(completedAt) + SAVE_WINDOW_DAYS * 86_400_000).toISOString().slice(0, 10);
}
