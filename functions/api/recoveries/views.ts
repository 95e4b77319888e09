/**
 * How recoveries leave the API: A's fields (canonical) plus B's aliases for the same facts, with the same
 * value (DESIGN §1), typed against the response schemas (schemas.ts) so that the compiler checks
 * every field a view writes.
 */
import type * as z from '#shared/zod';
import type { CampaignStep } from '#core/campaigns/types';
import { currentStepOf, type EnrollmentRecord, stepProgressOf } from '#core/enrollments';
import type { PaymentRecord } from '#core/payments';
import type { Recovery, RecoveryDetail } from './schemas';

/** A recovery (A list and detail fields) with B's aliases; its campaign fields from its enrollment, when it has one. */
export const recoveryView = (p: PaymentRecord, enrollment?: EnrollmentRecord): z.output<typeof Recovery> => ({
  id: p.recovery_id,
  payment_event_id: p.id,
  payment_id: p.id,
  status: p.status,
  retry_count: p.retry_count,
  max_retries: p.max_retries,
  next_retry_at: p.next_retry_at,
  recovered_at: p.recovered_at,
  recovery_method: p.recovery_method,
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
  campaign_id: enrollment?.campaign_id ?? p.campaign_id,
  current_step: enrollment === undefined ? null : currentStepOf(enrollment),
  total_steps: enrollment?.total_steps ?? null,
  created_at: p.created_at,
  updated_at: p.updated_at,
});

/** Recoveries of a page, each with its enrollment (from one BatchGet of the page's). */
export const recoveryViews = (payments: readonly PaymentRecord[], enrollments: ReadonlyMap<string, EnrollmentRecord>): z.output<typeof Recovery>[] =>
  payments.map((p) => recoveryView(p, enrollments.get(p.id)));

/**
 * The recovery detail adds its state history (A) and its campaign progress (B): the campaign's
 * steps (`steps` of the campaign as it is now; when the campaign is gone, the steps that ran).
 */
export const recoveryDetailView = (p: PaymentRecord, enrollment?: EnrollmentRecord, steps?: readonly CampaignStep[]): z.output<typeof RecoveryDetail> => ({
  ...recoveryView(p, enrollment),
  state_history: [...p.state_history],
  campaign_status: enrollment?.status ?? null,
  campaign_end_reason: enrollment?.end_reason ?? null,
  campaign_steps:
    enrollment === undefined
      ? null
      : stepProgressOf(enrollment, steps ?? enrollment.steps.map((ran) => ({ action: ran.action, delay_hours: 0, template_id: null }))),
});
