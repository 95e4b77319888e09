import type { DeclineCategory } from './decline-codes/types';
import { StateConflictError } from './errors';
import { idBody } from './ids';

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

/** Default number of automatic retries of one payment. */
export const DEFAULT_MAX_RETRIES = 4;

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
  readonly terminal_at: string | null;
  /** A hard_customer decline waits for a new card before any retry. */
  readonly awaiting_card_update: boolean;
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

export const paymentIdFor = (body: string): string => `pe_${body}`;
export const recoveryIdFor = (body: string): string => `rec_${body}`;

/** The shared body of a `pe_` or `rec_` id, or undefined for anything else. */
export const paymentBodyOf = (id: string): string | undefined => idBody(id, 'pe') ?? idBody(id, 'rec');

/** A transition request; each maps to one row of the spec's transition table. */
export type PaymentEvent =
  | { readonly type: 'schedule_retry'; readonly at: string; readonly reason: string }
  | { readonly type: 'pause'; readonly reason: string }
  | { readonly type: 'resume'; readonly reason: string }
  | { readonly type: 'recover'; readonly reason: string }
  | { readonly type: 'terminate'; readonly reason: string }
  | { readonly type: 'card_updated'; readonly reason: string };

/** The fields a transition changes, and the timeline entry it leaves. */
export interface Transition {
  readonly changes: Partial<Omit<PaymentRecord, 'state_history' | 'version' | 'id' | 'recovery_id' | 'merchant_id'>>;
  readonly history: StateHistoryEntry | undefined;
  readonly timeline: { readonly type: string; readonly detail: string; readonly details: Readonly<Record<string, unknown>> };
}

function refuse(record: PaymentRecord, action: string, why = `it is ${record.status}`): never {
  throw new StateConflictError(`Cannot ${action} payment ${record.id}: ${why}.`);
}

/**
 * The status machine (pure). Throws 409 `state_conflict`, naming the current status, for a
 * transition the table does not allow:
 * - schedule_retry: pending or retrying → retrying; refused when recovered, terminal, paused,
 *   at max_retries, or waiting for a card update.
 * - pause: pending or retrying → paused (previous_status kept); refused otherwise.
 * - resume: paused → previous status; refused otherwise.
 * - recover: pending, retrying or paused → recovered (recovered_at set).
 * - terminate: pending, retrying or paused → terminal.
 * - card_updated: clears awaiting_card_update on an open payment (status unchanged).
 */
export function transition(record: PaymentRecord, event: PaymentEvent, now: Date): Transition {
  const at = now.toISOString();
  const history = (status: PaymentStatus): StateHistoryEntry => ({ status, at, reason: event.reason });
  switch (event.type) {
    case 'schedule_retry': {
      if (record.status !== 'pending' && record.status !== 'retrying') refuse(record, 'retry');
      if (record.retry_count >= record.max_retries) refuse(record, 'retry', `it has reached its maximum of ${record.max_retries} retries`);
      if (record.awaiting_card_update) refuse(record, 'retry', `its ${record.decline_category} decline waits for a card update`);
      return {
        changes: { status: 'retrying', next_retry_at: event.at },
        history: record.status === 'retrying' ? undefined : history('retrying'),
        timeline: { type: 'retry_scheduled', detail: `Retry ${record.retry_count + 1} scheduled for ${event.at}: ${event.reason}`, details: { retry_number: record.retry_count + 1, scheduled_at: event.at, reason: event.reason } },
      };
    }
    case 'pause': {
      if (record.status !== 'pending' && record.status !== 'retrying') refuse(record, 'pause');
      return {
        changes: { status: 'paused', previous_status: record.status, paused_at: at },
        history: history('paused'),
        timeline: { type: 'status_change', detail: `Paused (was ${record.status}): ${event.reason}`, details: { from: record.status, to: 'paused', reason: event.reason } },
      };
    }
    case 'resume': {
      if (record.status !== 'paused') refuse(record, 'resume');
      const restored = record.previous_status ?? 'pending';
      return {
        changes: { status: restored, previous_status: null, resumed_at: at },
        history: history(restored),
        timeline: { type: 'status_change', detail: `Resumed to ${restored}: ${event.reason}`, details: { from: 'paused', to: restored, reason: event.reason } },
      };
    }
    case 'recover': {
      if (!isOpen(record.status)) refuse(record, 'recover');
      return {
        changes: { status: 'recovered', previous_status: null, recovered_at: at, next_retry_at: null },
        history: history('recovered'),
        timeline: { type: 'retry_succeeded', detail: `Recovered: ${event.reason}`, details: { from: record.status, to: 'recovered', reason: event.reason } },
      };
    }
    case 'terminate': {
      if (!isOpen(record.status)) refuse(record, 'end');
      return {
        changes: { status: 'terminal', previous_status: null, terminal_at: at, next_retry_at: null },
        history: history('terminal'),
        timeline: { type: 'status_change', detail: `Ended as terminal: ${event.reason}`, details: { from: record.status, to: 'terminal', reason: event.reason } },
      };
    }
    case 'card_updated': {
      if (!isOpen(record.status)) refuse(record, 'update the card of');
      return {
        changes: { awaiting_card_update: false },
        history: undefined,
        timeline: { type: 'payment_method_updated', detail: `Payment method updated: ${event.reason}`, details: { reason: event.reason, was_awaiting: record.awaiting_card_update } },
      };
    }
  }
}
