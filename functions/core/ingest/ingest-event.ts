import { classifyDecline } from '#core/decline-codes/index';
import type { DeclineCategory } from '#core/decline-codes/types';
import type { CardExpiry } from '#core/customers';
import type { Currency } from '#core/money';
import { isPsp } from '#core/providers';

/** The event types POST /ingest/payment-event accepts (spec, Integrations and ingest). */
export const INGEST_EVENT_TYPES = ['payment_failed', 'payment_succeeded', 'subscription_cancelled', 'payment_method_updated', 'charge_refunded'] as const;
export type IngestEventType = (typeof INGEST_EVENT_TYPES)[number];

/**
 * The psp recorded for a payment whose sender names no known provider: the event came through
 * the generic ingest path, from a platform that is not one of the 13 providers.
 */
export const INGEST_PSP = 'ingest';

/**
 * A payment event from a platform, normalised: what POST /ingest/payment-event receives, and what
 * provider webhooks will produce. The optional fields are the recognised metadata keys; all of
 * `metadata`, recognised keys included, is kept on a payment the event records.
 */
export interface IngestEvent {
  readonly type: IngestEventType;
  /** Smallest currency unit. */
  readonly amount: number;
  readonly currency: Currency;
  readonly customerEmail: string;
  readonly declineCode: string | null;
  /** The sender's id of this event: its dedupe key when given. */
  readonly eventId?: string | undefined;
  /** The provider's payment (charge) id. */
  readonly providerPaymentId?: string | undefined;
  /** The provider's charge id when it differs from providerPaymentId (Stripe's `ch_…` of a `pi_…`): a second id the payment is found by. */
  readonly providerChargeId?: string | undefined;
  /** The sender's provider; only one of the 13 psp ids is recorded as such (else `ingest`). */
  readonly psp?: string | undefined;
  readonly customerName?: string | undefined;
  readonly providerCustomerId?: string | undefined;
  /** The customer's IANA time zone (valid: isValidTimeZone), when the sender knows it: retries are timed in the customer's local time. */
  readonly customerTimezone?: string | undefined;
  /** The customer's E.164 phone number, when the sender knows it: campaign SMS and WhatsApp messages go to it. */
  readonly customerPhone?: string | undefined;
  readonly subscriptionId?: string | undefined;
  readonly invoiceId?: string | undefined;
  /** Raw card-network response code (a Visa category 1 code forbids any retry). */
  readonly networkCode?: string | undefined;
  /** `visa`, `mastercard`, ... */
  readonly network?: string | undefined;
  /** Mastercard MAC, Visa advice or Stripe advice_code. */
  readonly adviceCode?: string | undefined;
  /**
   * The expiry of the customer's card on file, when the event tells it: a value is kept on the
   * customer (newest wins), null clears it (a new card whose expiry is unknown), undefined keeps it.
   */
  readonly cardExpiry?: CardExpiry | null | undefined;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/**
 * What ingesting an event did; the `data` of the HTTP response.
 * - `status`: `processed` when this delivery was handled now (even when it matched nothing and so
 *   changed nothing); `duplicate` when the same event (same sender event id, or same type and
 *   provider payment id) was already ingested, or a payment_failed names a provider payment already
 *   recorded: nothing changed, and the other fields are those of the first delivery.
 *   `refused` when the event names an erased customer (by email or provider customer id): nothing
 *   is written and nothing charged (functions/data/erasure-tombstones.ts).
 * - `recovery_initiated`: a payment_failed opened a new recovery that is open (not terminal at once).
 * - `payment_event_id`, `recovery_id`: the one payment the event was about (recorded, recovered
 *   or refunded), else null.
 * - `affected_payment_ids`: every payment the event changed (several for subscription_cancelled
 *   and payment_method_updated).
 */
export interface IngestResult {
  readonly event_id: string;
  readonly event_type: IngestEventType;
  readonly status: 'processed' | 'duplicate' | 'refused';
  readonly recovery_initiated: boolean;
  readonly payment_event_id: string | null;
  readonly recovery_id: string | null;
  readonly affected_payment_ids: readonly string[];
}

/** The psp to record: the sender's when it is one of the 13 providers, else `ingest`. */
export function pspOf(event: Pick<IngestEvent, 'psp'>): string {
  const psp = event.psp?.trim().toLowerCase();
  return psp !== undefined && isPsp(psp) ? psp : INGEST_PSP;
}

/**
 * The key under which a delivery counts as the same event: the sender's event id, else the event
 * type with the provider payment id, else none (only the Idempotency-Key header dedupes then).
 * Several partial refunds of one charge therefore need distinct event ids.
 */
export function dedupeKeyOf(event: Pick<IngestEvent, 'type' | 'eventId' | 'providerPaymentId'>): string | undefined {
  if (event.eventId !== undefined) return JSON.stringify(['event_id', event.eventId]);
  if (event.providerPaymentId !== undefined) return JSON.stringify(['payment', event.type, event.providerPaymentId]);
  return undefined;
}

export interface FailedPaymentClassification {
  readonly category: DeclineCategory;
  readonly subcategory: string;
  /**
   * Whether the recovery opens (pending) rather than ending as terminal at once. A hard_customer
   * decline forbids retrying the same card, not the recovery: it opens waiting for a card update
   * (payment_method_updated lifts the wait). Only a do-not-retry signal (terminal) ends it.
   */
  readonly retryAllowed: boolean;
  readonly reason: string;
}

/** Classifies a payment_failed event by DESIGN §2b's precedence (advice, network code, provider code). */
export function classifyFailedPayment(event: IngestEvent): FailedPaymentClassification {
  const classification = classifyDecline({
    psp: pspOf(event),
    ...(event.declineCode === null ? {} : { declineCode: event.declineCode }),
    ...(event.networkCode === undefined ? {} : { networkCode: event.networkCode }),
    ...(event.network === undefined ? {} : { network: event.network }),
    ...(event.adviceCode === undefined ? {} : { adviceCode: event.adviceCode }),
  });
  return {
    category: classification.category,
    subcategory: classification.subcategory,
    retryAllowed: classification.retry.allowed || classification.category === 'hard_customer',
    reason: classification.retry.reason,
  };
}
