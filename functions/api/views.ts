/**
 * How records leave the API: A's fields (canonical) plus B's aliases for the same facts, with
 * the same value (DESIGN §1: `amount` + `amount_cents`, `provider_payment_id` + `external_id`,
 * `payment_event_id` + `payment_id`). Every group renders records through these, once.
 */
import type { CustomerRecord } from '#core/customers';
import type { PaymentRecord } from '#core/payments';
import type { SubscriptionRecoverySummary } from '#core/subscriptions';
import type { TimelineEntry } from '#data/payment-queries';

/** A payment event (A) with B's aliases. */
export const paymentView = (p: PaymentRecord) => ({
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
  subscription_id: p.subscription_id,
  invoice_id: p.invoice_id,
  metadata: p.metadata,
  created_at: p.created_at,
  updated_at: p.updated_at,
});

/** A recovery (A list and detail fields) with B's aliases. */
export const recoveryView = (p: PaymentRecord) => ({
  id: p.recovery_id,
  payment_event_id: p.id,
  payment_id: p.id,
  status: p.status,
  retry_count: p.retry_count,
  max_retries: p.max_retries,
  next_retry_at: p.next_retry_at,
  recovered_at: p.recovered_at,
  psp_payment_id: p.provider_payment_id,
  amount: p.amount,
  amount_cents: p.amount,
  currency: p.currency,
  decline_code: p.decline_code,
  decline_category: p.decline_category,
  decline_subcategory: p.decline_subcategory,
  psp: p.psp,
  customer_id: p.customer_id,
  subscription_id: p.subscription_id,
  campaign_id: p.campaign_id,
  // B's campaign progress: campaigns do not run steps yet, so there is no step to report.
  current_step: null,
  total_steps: null,
  created_at: p.created_at,
  updated_at: p.updated_at,
});

/** The recovery detail adds its state history (A). */
export const recoveryDetailView = (p: PaymentRecord) => ({ ...recoveryView(p), state_history: p.state_history });

/**
 * A customer (A) with B's alias `total_revenue_cents`. Money totals are per currency (DESIGN §2c):
 * the scalars are the totals in `currency` (that of the customer's most recent payment), the
 * `_by_currency` maps hold every currency's.
 */
export const customerView = (c: CustomerRecord) => ({
  id: c.id,
  provider_customer_id: c.provider_customer_id,
  email: c.email,
  name: c.name,
  psp: c.psp,
  total_payments: c.total_payments,
  failed_payments: c.failed_payments,
  recovered_payments: c.recovered_payments,
  currency: c.currency,
  lifetime_value_cents: c.lifetime_value_cents,
  total_revenue_cents: c.lifetime_value_cents,
  lifetime_value_by_currency: c.lifetime_value_by_currency,
  total_revenue_by_currency: c.lifetime_value_by_currency,
  created_at: c.created_at,
});

/** B's by-email recovery figures. */
export const recoveryStatsView = (c: CustomerRecord) => ({
  total_failed: c.failed_payments,
  total_recovered: c.recovered_payments,
  recovery_rate: c.failed_payments === 0 ? 0 : c.recovered_payments / c.failed_payments,
  total_recovered_cents: c.total_recovered_cents,
  total_recovered_by_currency: c.total_recovered_by_currency,
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
export function timelineEventView(e: TimelineEntry, form: TimelineForm = 'payment') {
  const type = timelineTypeOf(e, form);
  return { type, timestamp: e.timestamp, detail: e.detail, details: type === e.type ? e.details : { ...e.details, kind: e.type } };
}

/** A subscription recovery status (A), plus the counts and currency that explain it. */
export const subscriptionRecoveryView = (s: SubscriptionRecoverySummary) => ({
  subscription_id: s.subscriptionId,
  status: s.status,
  failed_invoice_count: s.failedCount,
  total_at_risk: s.atRiskAmount,
  recovered_amount: s.recoveredAmount,
  total_at_risk_by_currency: s.atRiskByCurrency,
  recovered_amount_by_currency: s.recoveredByCurrency,
  recovery_rate: s.recoveryRate,
  open_invoice_count: s.openCount,
  recovered_invoice_count: s.recoveredCount,
  terminal_invoice_count: s.terminalCount,
  currency: s.currency,
});

/** A failed invoice (A list item) with its payment and B's aliases. */
export const failedInvoiceView = (p: PaymentRecord) => ({
  invoice_id: p.invoice_id,
  payment_event_id: p.id,
  payment_id: p.id,
  recovery_id: p.recovery_id,
  amount: p.amount,
  amount_cents: p.amount,
  currency: p.currency,
  decline_code: p.decline_code,
  decline_category: p.decline_category,
  status: p.status,
  created_at: p.created_at,
});

/** An invoice recovery status (A) with B's aliases. */
export const invoiceView = (p: PaymentRecord) => ({
  invoice_id: p.invoice_id,
  payment_event_id: p.id,
  payment_id: p.id,
  recovery_id: p.recovery_id,
  subscription_id: p.subscription_id,
  amount: p.amount,
  amount_cents: p.amount,
  currency: p.currency,
  status: p.status,
  decline_code: p.decline_code,
  decline_category: p.decline_category,
  decline_subcategory: p.decline_subcategory,
  psp: p.psp,
  retry_count: p.retry_count,
  max_retries: p.max_retries,
  next_retry_at: p.next_retry_at,
  recovered_at: p.recovered_at,
  created_at: p.created_at,
  updated_at: p.updated_at,
});

/** An invoice's timeline (A), oldest first. */
export const invoiceTimelineView = (p: PaymentRecord, events: readonly TimelineEntry[]) => ({
  invoice_id: p.invoice_id,
  payment_event_id: p.id,
  payment_id: p.id,
  events: events.map((e) => timelineEventView(e, 'invoice')),
});
