import type { DeclineCategory } from './decline-codes/types';
import { StateConflictError } from './errors';
import { idBody } from './ids';
import { type CampaignChannel, type RecoveryMethod, recoveryMethodOf } from './recovery-method';

/**
 * A failed payment and its recovery are one record with one status machine (spec, States and
 * transitions). The payment is `pe_<body>` and its recovery `rec_<body>`: the same body, so either
 * id finds the one item, and every transition is one conditional write.
 */
export const PAYMENT_STATUSES = ['pending', 'retrying', 'recovered', 'terminal', 'paused'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Statuses of a recovery still in progress. */
export const OPEN_STATUSES: readonly PaymentStatus[] = ['pending', 'retrying', 'paused'];
export const isOpen = (status: PaymentStatus): boolean => OPEN_STATUSES.includes(status);

/** B's filter values, as sets of A's statuses (DESIGN §1). */
export const PAYMENT_STATUS_FILTERS = {
  pending: ['pending'],
  retrying: ['retrying'],
  recovered: ['recovered'],
  terminal: ['terminal'],
  paused: ['paused'],
  failed: ['pending', 'retrying', 'paused'],
  active: ['pending', 'retrying'],
} as const satisfies Record<string, readonly PaymentStatus[]>;
export type PaymentStatusFilter = keyof typeof PAYMENT_STATUS_FILTERS;

/**
 * Default number of automatic retries of one payment: Stripe's recommended default of 8 tries
 * (Smart Retries, "8 tries within 2 weeks"). The policy times them and the card-network caps bound
 * them; most recoveries end sooner, and do-not-retry and hard declines never use them.
 */
export const DEFAULT_MAX_RETRIES = 8;

/**
 * A manual retry (POST /payments/{id}/retry) is refused within this long of the payment's last
 * attempt or last manual request, so a merchant's script cannot charge a card in a burst.
 */
export const MANUAL_RETRY_SPACING_MS = 5 * 60_000;

export interface StateHistoryEntry {
  readonly status: PaymentStatus;
  readonly at: string;
  readonly reason: string;
}

export interface PaymentRecord {
  readonly id: string;
  readonly recovery_id: string;
  readonly merchant_id: string;
  readonly customer_id: string;
  readonly customer_email: string;
  readonly psp: string;
  readonly provider_payment_id: string | null;
  readonly amount: number;
  readonly currency: string;
  readonly status: PaymentStatus;
  readonly previous_status: PaymentStatus | null;
  readonly decline_code: string | null;
  readonly decline_category: DeclineCategory;
  readonly decline_subcategory: string;
  readonly retry_count: number;
  readonly max_retries: number;
  readonly next_retry_at: string | null;
  readonly paused_at: string | null;
  readonly resumed_at: string | null;
  readonly recovered_at: string | null;
  /** What recovered it (core/recovery-method.ts), set by the transition to `recovered`; null before, and on records older than the field. */
  readonly recovery_method: RecoveryMethod | null;
  readonly terminal_at: string | null;
  /** When the customer last updated the card for this open payment (`card_updated`); null if never. Recovery attribution reads it. */
  readonly card_updated_at: string | null;
  /** A hard_customer decline waits for a new card before any retry. */
  readonly awaiting_card_update: boolean;
  /** The raw network response code and advice code of the last decline, when the provider sent them (the policy re-reads them). */
  readonly network_code: string | null;
  readonly advice_code: string | null;
  /** The card's network (`visa`, `mastercard`, …) when known: its caps apply. */
  readonly card_network: string | null;
  /** The card the networks count attempts on (core/card-caps.ts cardIdentityOf). */
  readonly card_identity: string;
  /** The customer's IANA time zone when the payment was recorded (CustomerRecord.timezone): the policy's local time. */
  readonly customer_timezone?: string;
  /** The retry being attempted now, recorded before the gateway call; null between attempts. */
  readonly attempt: RetryAttempt | null;
  /** Gateway calls that gave no answer (5xx, timeout): retried, never counted as customer attempts. */
  readonly gateway_errors: number;
  readonly last_attempt_at: string | null;
  /** When a retry was last requested through the API (the manual-retry spacing counts from it). */
  readonly retry_requested_at: string | null;
  readonly subscription_id: string | null;
  readonly invoice_id: string | null;
  readonly campaign_id: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly state_history: readonly StateHistoryEntry[];
  readonly created_at: string;
  readonly updated_at: string;
  /** Optimistic-concurrency version: every write checks and bumps it. */
  readonly version: number;
}

/** A payment that names the invoice it failed to pay (the invoice routes' records). */
export type InvoicedPayment = PaymentRecord & { readonly invoice_id: string };
export const isInvoiced = (payment: PaymentRecord): payment is InvoicedPayment => payment.invoice_id !== null;

/**
 * An attempt in flight. Its number and idempotency key are fixed here, before the gateway call,
 * so a re-send after a crash (the lease ran out with no outcome recorded) reuses the key and the
 * provider deduplicates it.
 */
export interface RetryAttempt {
  /** retry_count + 1 when the attempt was recorded. */
  readonly number: number;
  readonly idempotency_key: string;
  readonly gateway: string;
  readonly recorded_at: string;
  /** Until then the attempt belongs to the run that recorded it; afterwards the next run re-sends it. */
  readonly lease_until: string;
}

/**
 * The instant a change of `before` is stamped with: `now`, or 1 ms after the payment's last write
 * when that is later (a request that waited for a concurrent write commits after it). Taken on the
 * state read for the conditional write that commits, so state_history and timeline entries ordered
 * by time are in the order of the writes (the versions).
 */
export function commitInstant(before: Pick<PaymentRecord, 'updated_at' | 'state_history'>, now: Date): Date {
  const last = Math.max(Date.parse(before.updated_at), ...before.state_history.map((entry) => Date.parse(entry.at)).filter((t) => !Number.isNaN(t)));
  return Number.isNaN(last) || last < now.getTime() ? now : new Date(last + 1);
}

/** The decline of an attempt, as the gateway answered it. */
export interface AttemptDecline {
  readonly decline_code: string;
  readonly decline_category: DeclineCategory;
  readonly decline_subcategory: string;
  readonly network_code: string | null;
  readonly advice_code: string | null;
  readonly card_network: string | null;
}

export const paymentIdFor = (body: string): string => `pe_${body}`;
export const recoveryIdFor = (body: string): string => `rec_${body}`;

/** The shared body of a `pe_` or `rec_` id, or undefined for anything else. */
export const paymentBodyOf = (id: string): string | undefined => idBody(id, 'pe') ?? idBody(id, 'rec');

/** A transition request; each maps to one row of the spec's transition table. */
export type PaymentEvent =
  | { readonly type: 'schedule_retry'; readonly at: string; readonly reason: string }
  | { readonly type: 'request_retry'; readonly at: string; readonly reason: string }
  | { readonly type: 'pause'; readonly reason: string }
  | { readonly type: 'resume'; readonly reason: string }
  /** The provider reported it paid; `campaignChannel`: the last campaign message sent to it (services/recovery-attribution.ts). */
  | { readonly type: 'recover'; readonly reason: string; readonly campaignChannel?: CampaignChannel | null }
  | { readonly type: 'terminate'; readonly reason: string }
  | { readonly type: 'card_updated'; readonly reason: string; readonly cardIdentity?: string }
  | { readonly type: 'await_card_update'; readonly reason: string }
  | { readonly type: 'start_attempt'; readonly attempt: RetryAttempt; readonly reason: string }
  | { readonly type: 'attempt_succeeded'; readonly providerChargeId: string; readonly reason: string; readonly campaignChannel?: CampaignChannel | null }
  | { readonly type: 'attempt_declined'; readonly decline: AttemptDecline; readonly reason: string }
  | { readonly type: 'attempt_errored'; readonly reason: string }
  | { readonly type: 'decline_detailed'; readonly decline: AttemptDecline; readonly reason: string };

/** The fields a transition changes, and the timeline entry it leaves. */
export interface Transition {
  readonly changes: Partial<Omit<PaymentRecord, 'state_history' | 'version' | 'id' | 'recovery_id' | 'merchant_id'>>;
  readonly history: StateHistoryEntry | undefined;
  readonly timeline: { readonly type: string; readonly detail: string; readonly details: Readonly<Record<string, unknown>> };
}

function refuse(record: PaymentRecord, action: string, why = `it is ${record.status}`): never {
  throw new StateConflictError(`Cannot ${action} payment ${record.id}: ${why}.`);
}

/** The spec's retry rules: open and not paused, below max_retries, not waiting for a new card, no attempt in flight. */
function refuseRetry(record: PaymentRecord): void {
  if (record.status !== 'pending' && record.status !== 'retrying') refuse(record, 'retry');
  if (record.retry_count >= record.max_retries) refuse(record, 'retry', `it has reached its maximum of ${record.max_retries} retries`);
  if (record.awaiting_card_update) refuse(record, 'retry', `its ${record.decline_category} decline waits for a card update`);
  if (record.attempt !== null) refuse(record, 'retry', `retry ${record.attempt.number} is being attempted now`);
}

/**
 * The manual-retry spacing: refused within MANUAL_RETRY_SPACING_MS of the last attempt or of the
 * last retry requested through the API.
 */
function refuseManualRetryTooSoon(record: PaymentRecord, now: Date): void {
  const last = [record.last_attempt_at, record.retry_requested_at].filter((at): at is string => at !== null).map((at) => Date.parse(at));
  if (last.length === 0) return;
  const allowedAt = Math.max(...last) + MANUAL_RETRY_SPACING_MS;
  if (allowedAt > now.getTime()) {
    refuse(
      record,
      'retry',
      `a retry was attempted or requested less than ${MANUAL_RETRY_SPACING_MS / 60_000} minutes ago; the next manual retry is allowed at ${new Date(allowedAt).toISOString()}`,
    );
  }
}

/** Throws 409 `state_conflict` when a retry requested through the API now is refused (the spec's rules, then the spacing). */
export function refuseManualRetry(record: PaymentRecord, now: Date): void {
  refuseRetry(record);
  refuseManualRetryTooSoon(record, now);
}

function attemptInFlight(record: PaymentRecord): RetryAttempt {
  if (record.attempt === null) refuse(record, 'record the outcome of an attempt on', 'no attempt is in flight');
  return record.attempt;
}

/**
 * The status machine (pure). Throws 409 `state_conflict`, naming the current status, for a
 * transition the table does not allow:
 * - schedule_retry: pending or retrying → retrying; refused when recovered, terminal, paused,
 *   at max_retries, waiting for a card update, or while an attempt is in flight.
 * - request_retry: a retry requested through the API, due at `at` (now, or the end of quiet hours
 *   or a cap): as schedule_retry, also refused within MANUAL_RETRY_SPACING_MS of the last attempt
 *   or request; records retry_requested_at. The retry executor attempts it once it is due.
 * - await_card_update: pending or retrying → pending, waiting for a card update (no retry).
 * - start_attempt: retrying → retrying with the attempt recorded (next_retry_at = its lease end);
 *   the same attempt again (same idempotency key) is a re-send after a crash.
 * - attempt_succeeded: the attempt in flight → recovered (retry_count = its number;
 *   recovery_method by recoveryMethodOf, as our retry).
 * - attempt_declined: the attempt in flight ends declined (retry_count = its number, the new
 *   decline recorded); a hard_customer decline → pending, waiting for a card update; otherwise
 *   the policy's next decision follows in the same write.
 * - attempt_errored: the attempt in flight got no answer; not counted (gateway_errors + 1).
 * - decline_detailed: an open payment recorded without a decline code learns it (a sibling event
 *   of the same charge carried it). A retry planned but not attempted yet is dropped so that the
 *   policy plans it again for the decline as now classified (changePayment does, in the same
 *   write); a hard_customer decline waits for a card update instead.
 * - pause: pending or retrying → paused (previous_status kept); no retry is planned while paused
 *   (next_retry_at cleared, so the payment leaves the due index); refused otherwise.
 * - resume: paused → previous status, paused_at cleared; the policy plans the retry again (an
 *   attempt still in flight is due at the end of its lease); refused otherwise.
 * - recover: pending, retrying or paused → recovered (recovered_at set; recovery_method by
 *   recoveryMethodOf, as reported by the provider).
 * - terminate: pending, retrying or paused → terminal.
 * - card_updated: clears awaiting_card_update on an open payment (status unchanged) and stamps
 *   card_updated_at (a recovery after it is a `card_update` one, unless a campaign's message outranks it).
 */
export function transition(record: PaymentRecord, event: PaymentEvent, now: Date): Transition {
  const at = now.toISOString();
  const history = (status: PaymentStatus): StateHistoryEntry => ({ status, at, reason: event.reason });
  switch (event.type) {
    case 'schedule_retry': {
      refuseRetry(record);
      return {
        changes: { status: 'retrying', next_retry_at: event.at },
        history: history('retrying'),
        timeline: {
          type: 'retry_scheduled',
          detail: `Retry ${record.retry_count + 1} scheduled for ${event.at}: ${event.reason}`,
          details: { retry_number: record.retry_count + 1, scheduled_at: event.at, reason: event.reason },
        },
      };
    }
    case 'request_retry': {
      refuseManualRetry(record, now);
      const due = Date.parse(event.at) <= now.getTime();
      return {
        changes: { status: 'retrying', next_retry_at: event.at, retry_requested_at: at },
        history: history('retrying'),
        timeline: {
          type: 'retry_scheduled',
          detail: `Retry ${record.retry_count + 1} requested through the API, ${due ? 'due now' : `due at ${event.at}`}: ${event.reason}`,
          details: { retry_number: record.retry_count + 1, scheduled_at: event.at, requested: true, reason: event.reason },
        },
      };
    }
    case 'pause': {
      if (record.status !== 'pending' && record.status !== 'retrying') refuse(record, 'pause');
      return {
        changes: { status: 'paused', previous_status: record.status, paused_at: at, next_retry_at: null },
        history: history('paused'),
        timeline: {
          type: 'status_change',
          detail: `Paused (was ${record.status}): ${event.reason}`,
          details: { from: record.status, to: 'paused', reason: event.reason },
        },
      };
    }
    case 'resume': {
      if (record.status !== 'paused') refuse(record, 'resume');
      const restored = record.previous_status ?? 'pending';
      return {
        // An attempt recorded before the pause is due again when its lease ends (re-sent with its key).
        changes: { status: restored, previous_status: null, paused_at: null, resumed_at: at, next_retry_at: record.attempt?.lease_until ?? null },
        history: history(restored),
        timeline: { type: 'status_change', detail: `Resumed to ${restored}: ${event.reason}`, details: { from: 'paused', to: restored, reason: event.reason } },
      };
    }
    case 'recover': {
      if (!isOpen(record.status)) refuse(record, 'recover');
      return {
        changes: {
          status: 'recovered',
          previous_status: null,
          recovered_at: at,
          recovery_method: recoveryMethodOf(record, 'provider', event.campaignChannel),
          next_retry_at: null,
          attempt: null,
        },
        history: history('recovered'),
        timeline: { type: 'retry_succeeded', detail: `Recovered: ${event.reason}`, details: { from: record.status, to: 'recovered', reason: event.reason } },
      };
    }
    case 'terminate': {
      if (!isOpen(record.status)) refuse(record, 'end');
      return {
        changes: { status: 'terminal', previous_status: null, terminal_at: at, next_retry_at: null, attempt: null },
        history: history('terminal'),
        timeline: {
          type: 'status_change',
          detail: `Ended as terminal: ${event.reason}`,
          details: { from: record.status, to: 'terminal', reason: event.reason },
        },
      };
    }
    case 'card_updated': {
      if (!isOpen(record.status)) refuse(record, 'update the card of');
      return {
        changes: { awaiting_card_update: false, card_updated_at: at, ...(event.cardIdentity === undefined ? {} : { card_identity: event.cardIdentity }) },
        history: undefined,
        timeline: {
          type: 'payment_method_updated',
          detail: `Payment method updated: ${event.reason}`,
          details: { reason: event.reason, was_awaiting: record.awaiting_card_update },
        },
      };
    }
    case 'await_card_update': {
      if (record.status !== 'pending' && record.status !== 'retrying') refuse(record, 'wait for a card update on');
      return {
        changes: { status: 'pending', awaiting_card_update: true, next_retry_at: null },
        history: history('pending'),
        timeline: { type: 'awaiting_card_update', detail: `Waiting for a card update: ${event.reason}`, details: { reason: event.reason } },
      };
    }
    case 'start_attempt': {
      if (record.status !== 'retrying') refuse(record, 'attempt');
      if (record.attempt !== null && record.attempt.idempotency_key !== event.attempt.idempotency_key)
        refuse(record, 'attempt', `attempt ${record.attempt.number} is in flight`);
      if (record.attempt === null) refuseRetry(record);
      const resend = record.attempt !== null;
      return {
        changes: { attempt: event.attempt, next_retry_at: event.attempt.lease_until },
        history: undefined,
        timeline: {
          type: 'retry_attempted',
          detail: `${resend ? 'Re-sent' : 'Attempting'} retry ${event.attempt.number} through the ${event.attempt.gateway} gateway: ${event.reason}`,
          details: { retry_number: event.attempt.number, gateway: event.attempt.gateway, idempotency_key: event.attempt.idempotency_key, resend },
        },
      };
    }
    case 'attempt_succeeded': {
      const attempt = attemptInFlight(record);
      return {
        changes: {
          status: 'recovered',
          previous_status: null,
          recovered_at: at,
          recovery_method: recoveryMethodOf(record, 'retry', event.campaignChannel),
          next_retry_at: null,
          attempt: null,
          retry_count: attempt.number,
          last_attempt_at: at,
        },
        history: history('recovered'),
        timeline: {
          type: 'retry_succeeded',
          detail: `Retry ${attempt.number} succeeded: ${event.reason}`,
          details: { from: record.status, to: 'recovered', retry_number: attempt.number, provider_charge_id: event.providerChargeId, reason: event.reason },
        },
      };
    }
    case 'attempt_declined': {
      const attempt = attemptInFlight(record);
      // A hard_customer answer: the card will not work again; wait for a new one (paused stays paused).
      const hard = event.decline.decline_category === 'hard_customer';
      const waiting = hard && record.status !== 'paused';
      return {
        changes: {
          ...event.decline,
          attempt: null,
          next_retry_at: null,
          retry_count: attempt.number,
          last_attempt_at: at,
          ...(hard ? { awaiting_card_update: true } : {}),
          ...(waiting ? { status: 'pending' as const } : {}),
        },
        history: waiting ? history('pending') : undefined,
        timeline: {
          type: 'retry_failed',
          detail: `Retry ${attempt.number} declined with ${event.decline.decline_code} (${event.decline.decline_category}/${event.decline.decline_subcategory}): ${event.reason}`,
          details: { retry_number: attempt.number, ...event.decline, reason: event.reason },
        },
      };
    }
    case 'decline_detailed': {
      if (!isOpen(record.status)) refuse(record, 'add the decline details of');
      if (record.decline_code !== null) refuse(record, 'add the decline details of', `it has its decline code ${record.decline_code} already`);
      const hard = event.decline.decline_category === 'hard_customer';
      // Not attempted yet: the planned retry was decided for the decline as it was known then.
      const replan = record.attempt === null && record.status !== 'paused';
      const waits = hard && record.attempt === null;
      const status = waits && record.status !== 'paused' ? ('pending' as const) : undefined;
      return {
        changes: {
          ...event.decline,
          ...(replan ? { next_retry_at: null } : {}),
          ...(waits ? { awaiting_card_update: true } : {}),
          ...(status === undefined ? {} : { status }),
          ...(waits && record.status === 'paused' ? { previous_status: 'pending' as const } : {}),
        },
        history: status === undefined || status === record.status ? undefined : history(status),
        timeline: {
          type: 'decline_detailed',
          detail: `Decline code ${event.decline.decline_code} (${event.decline.decline_category}/${event.decline.decline_subcategory}) learnt: ${event.reason}`,
          details: { ...event.decline, reason: event.reason },
        },
      };
    }
    case 'attempt_errored': {
      const attempt = attemptInFlight(record);
      return {
        changes: { attempt: null, next_retry_at: null, gateway_errors: record.gateway_errors + 1 },
        history: undefined,
        timeline: {
          type: 'retry_gateway_error',
          detail: `Retry ${attempt.number} got no answer from the ${attempt.gateway} gateway (not counted as an attempt): ${event.reason}`,
          details: { retry_number: attempt.number, gateway: attempt.gateway, reason: event.reason },
        },
      };
    }
  }
}
