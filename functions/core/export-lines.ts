/**
 * The lines of a merchant data export (docs/data-exports.md): one JSON object per line, each
 * with `object` naming its kind. Fields are listed, not copied: what is internal to the service
 * (the card identity the networks' caps count on, the attempt in flight and its idempotency key,
 * optimistic-concurrency versions, search terms) never leaves it. Money is as stored: integers in
 * the currency's smallest unit, with the currency, never summed across currencies.
 */
import type { CustomerRecord } from './customers';
import type { ExportCounts } from './exports';
import type { PaymentRecord } from './payments';

export type ExportLineKind = 'customer' | 'payment' | 'recovery';

export function customerLine(customer: CustomerRecord) {
  return {
    object: 'customer' as const,
    id: customer.id,
    email: customer.email,
    name: customer.name,
    psp: customer.psp,
    provider_customer_id: customer.provider_customer_id,
    total_payments: customer.total_payments,
    failed_payments: customer.failed_payments,
    recovered_payments: customer.recovered_payments,
    open_payments: customer.open_payments,
    currency: customer.currency,
    total_failed_cents: customer.total_failed_cents,
    total_recovered_cents: customer.total_recovered_cents,
    lifetime_value_cents: customer.lifetime_value_cents,
    total_failed_by_currency: customer.total_failed_by_currency,
    total_recovered_by_currency: customer.total_recovered_by_currency,
    lifetime_value_by_currency: customer.lifetime_value_by_currency,
    timezone: customer.timezone ?? null,
    card_expiry: customer.card_expiry ?? null,
    created_at: customer.created_at,
    updated_at: customer.updated_at,
  };
}

export function paymentLine(payment: PaymentRecord) {
  return {
    object: 'payment' as const,
    id: payment.id,
    recovery_id: payment.recovery_id,
    customer_id: payment.customer_id,
    customer_email: payment.customer_email,
    psp: payment.psp,
    provider_payment_id: payment.provider_payment_id,
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status,
    decline_code: payment.decline_code,
    decline_category: payment.decline_category,
    decline_subcategory: payment.decline_subcategory,
    card_network: payment.card_network,
    subscription_id: payment.subscription_id,
    invoice_id: payment.invoice_id,
    metadata: payment.metadata,
    created_at: payment.created_at,
    updated_at: payment.updated_at,
  };
}

/** A payment's recovery: the same record seen as the recovery process (`rec_<body>`). */
export function recoveryLine(payment: PaymentRecord) {
  return {
    object: 'recovery' as const,
    id: payment.recovery_id,
    payment_event_id: payment.id,
    customer_id: payment.customer_id,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    retry_count: payment.retry_count,
    max_retries: payment.max_retries,
    next_retry_at: payment.next_retry_at,
    last_attempt_at: payment.last_attempt_at,
    paused_at: payment.paused_at,
    resumed_at: payment.resumed_at,
    recovered_at: payment.recovered_at,
    recovery_method: payment.recovery_method,
    terminal_at: payment.terminal_at,
    campaign_id: payment.campaign_id,
    state_history: payment.state_history,
    created_at: payment.created_at,
    updated_at: payment.updated_at,
  };
}

/** Counts by kind, as an export job records them. */
export const countKey: Readonly<Record<ExportLineKind, keyof ExportCounts>> = { customer: 'customers', payment: 'payments', recovery: 'recoveries' };
