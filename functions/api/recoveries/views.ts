/**
 * How recoveries leave the API: A's fields (canonical) plus B's aliases for the same facts, with the same
 * value (DESIGN §1), typed against the response schemas (schemas.ts) so that the compiler checks
 * every field a view writes.
 */
import type * as z from '#shared/zod';
import type { PaymentRecord } from '#core/payments';
import type { Recovery, RecoveryDetail } from './schemas';

/** A recovery (A list and detail fields) with B's aliases. */
export const recoveryView = (p: PaymentRecord): z.output<typeof Recovery> => ({
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
export const recoveryDetailView = (p: PaymentRecord): z.output<typeof RecoveryDetail> => ({ ...recoveryView(p), state_history: [...p.state_history] });
