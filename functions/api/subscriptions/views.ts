/**
 * How subscriptions and invoices leave the API: A's fields (canonical) plus B's aliases for the same facts, with the same
 * value (DESIGN §1), typed against the response schemas (schemas.ts) so that the compiler checks
 * every field a view writes.
 */
import type * as z from '#shared/zod';
import type { InvoicedPayment } from '#core/payments';
import type { SubscriptionRecoverySummary } from '#core/subscriptions';
import type { TimelineEntry } from '#data/payment-queries';
import { timelineEventView } from '#api/payments/views';
import type { FailedInvoice, InvoiceRecoveryStatus, InvoiceTimeline, SubscriptionRecoveryStatus } from './schemas';

/** A subscription recovery status (A), plus the counts and currency that explain it. */
export const subscriptionRecoveryView = (s: SubscriptionRecoverySummary): z.output<typeof SubscriptionRecoveryStatus> => ({
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
export const failedInvoiceView = (p: InvoicedPayment): z.output<typeof FailedInvoice> => ({
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
export const invoiceView = (p: InvoicedPayment): z.output<typeof InvoiceRecoveryStatus> => ({
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
export const invoiceTimelineView = (p: InvoicedPayment, events: readonly TimelineEntry[]): z.output<typeof InvoiceTimeline> => ({
  invoice_id: p.invoice_id,
  payment_event_id: p.id,
  payment_id: p.id,
  events: events.map((e) => timelineEventView(e, 'invoice')),
});
