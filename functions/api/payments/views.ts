/**
 * How payments and their timelines leave the API: A's fields (canonical) plus B's aliases for the same facts, with the same
 * value (DESIGN §1), typed against the response schemas (schemas.ts) so that the compiler checks
 * every field a view writes.
 */
import type * as z from '#shared/zod';
import type { PaymentRecord } from '#core/payments';
import type { TimelineEntry } from '#data/payment-queries';
import type { PaymentData, TimelineEventData } from './schemas';

/** A payment event (A) with B's aliases. */
export const paymentView = (p: PaymentRecord): z.output<typeof PaymentData> => ({
  id: p.id,
  recovery_id: p.recovery_id,
  provider_payment_id: p.provider_payment_id,
  external_id: p.provider_payment_id,
  amount: p.amount,
  amount_cents: p.amount,
  currency: p.currency,
  status: p.status,
  decline_code: p.decline_code,
  decline_category: p.decline_category,
  decline_subcategory: p.decline_subcategory,
  psp: p.psp,
  customer_id: p.customer_id,
  customer_email: p.customer_email,
  retry_count: p.retry_count,
  max_retries: p.max_retries,
  next_retry_at: p.next_retry_at,
  paused_at: p.paused_at,
  previous_status: p.previous_status,
  recovered_at: p.recovered_at,
  recovery_method: p.recovery_method,
  subscription_id: p.subscription_id,
  invoice_id: p.invoice_id,
  metadata: p.metadata,
  created_at: p.created_at,
  updated_at: p.updated_at,
});

/**
 * The spec's timeline words (Timeline events: payment_failed, retry, retry_scheduled,
 * retry_succeeded, status_change) for the finer types the payment records, by timeline:
 * - a payment's timeline answers A (types seen: payment_failed, retry) and B (payment_failed,
 *   retry_scheduled, retry_succeeded) in one body: B's two words where B has one, A's `retry`
 *   for what B names nothing for (an attempt made, declined or unanswered);
 * - an invoice's timeline is A's (types seen: status_change, retry): every retry event is `retry`,
 *   and a recovery without an attempt of ours (the provider's own success) a `status_change`.
 * Types with no word in the spec (payment_method_updated, awaiting_card_update, decline_detailed,
 * dunning_sent, charge_refunded) keep their own. A recorded type put in a coarser word stays in
 * `details.kind`.
 */
export type TimelineForm = 'payment' | 'invoice';

const RETRY_EVENTS = new Set(['retry_attempted', 'retry_failed', 'retry_gateway_error']);

export function timelineTypeOf(e: Pick<TimelineEntry, 'type' | 'details'>, form: TimelineForm): string {
  if (RETRY_EVENTS.has(e.type)) return 'retry';
  if (form === 'payment') return e.type;
  if (e.type === 'retry_scheduled') return 'retry';
  if (e.type === 'retry_succeeded') return e.details.retry_number === undefined ? 'status_change' : 'retry';
  return e.type;
}

/**
 * A timeline event: the spec's type (timelineTypeOf), A's `detail` text and B's `details` object,
 * which names the recorded type as `kind` when the spec's word is a coarser one.
 */
export function timelineEventView(e: TimelineEntry, form: TimelineForm = 'payment'): z.output<typeof TimelineEventData> {
  const type = timelineTypeOf(e, form);
  return { type, timestamp: e.timestamp, detail: e.detail, details: type === e.type ? e.details : { ...e.details, kind: e.type } };
}
