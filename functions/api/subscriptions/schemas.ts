import * as z from '#shared/zod';
import { DECLINE_CATEGORIES } from '#core/decline-codes/types';
import { PAYMENT_STATUSES } from '#core/payments';
import { SUBSCRIPTION_RECOVERY_STATUSES } from '#core/subscriptions';
import { offsetPagingQuery } from '#api/pipeline/paging-query';
import { AmountsByCurrency, OffsetPagination, ResponseMeta } from '#api/envelope-schemas';

const Id = z.string().check(z.minLength(1), z.maxLength(255));
const Timestamp = z.string();

export const SubscriptionRecoveryStatus = z.object({
  subscription_id: z.string(),
  status: z.enum(SUBSCRIPTION_RECOVERY_STATUSES),
  failed_invoice_count: z.number().check(z.int()),
  total_at_risk: z
    .number()
    .check(z.int())
    .clone()
    .register(z.globalRegistry, { description: 'Open amounts in `currency` (smallest unit); other currencies are in total_at_risk_by_currency.' }),
  recovered_amount: z
    .number()
    .check(z.int())
    .clone()
    .register(z.globalRegistry, { description: 'Recovered amounts in `currency` (smallest unit); other currencies are in recovered_amount_by_currency.' }),
  total_at_risk_by_currency: AmountsByCurrency,
  recovered_amount_by_currency: AmountsByCurrency,
  recovery_rate: z.number().check(z.gte(0), z.lte(1)),
  open_invoice_count: z.number().check(z.int()),
  recovered_invoice_count: z.number().check(z.int()),
  terminal_invoice_count: z.number().check(z.int()),
  currency: z.nullable(z.string()).clone().register(z.globalRegistry, {
    description: 'The currency of the most recent failed invoice: that of total_at_risk and recovered_amount; null only without failure data.',
  }),
});

export const FailedInvoice = z.object({
  invoice_id: z.string(),
  payment_event_id: z.string(),
  payment_id: z.string(),
  recovery_id: z.string(),
  amount: z.number().check(z.int()),
  amount_cents: z.number().check(z.int()),
  currency: z.string(),
  decline_code: z.nullable(z.string()),
  decline_category: z.enum(DECLINE_CATEGORIES),
  status: z.enum(PAYMENT_STATUSES),
  created_at: Timestamp,
});

export const InvoiceRecoveryStatus = z.object({
  invoice_id: z.string(),
  payment_event_id: z.string(),
  payment_id: z.string(),
  recovery_id: z.string(),
  subscription_id: z.nullable(z.string()),
  amount: z.number().check(z.int()),
  amount_cents: z.number().check(z.int()),
  currency: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  decline_code: z.nullable(z.string()),
  decline_category: z.enum(DECLINE_CATEGORIES),
  decline_subcategory: z.string(),
  psp: z.string(),
  retry_count: z.number().check(z.int()),
  max_retries: z.number().check(z.int()),
  next_retry_at: z.nullable(Timestamp),
  recovered_at: z.nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const InvoiceTimeline = z.object({
  invoice_id: z.string(),
  payment_event_id: z.string(),
  payment_id: z.string(),
  events: z.array(
    z.object({
      timestamp: Timestamp,
      type: z.string().clone().register(z.globalRegistry, {
        description:
          "A's word: payment_failed, retry (scheduled, attempted, declined, unanswered or succeeded), status_change (pause, resume, terminal, recovered by the provider); else payment_method_updated, awaiting_card_update, decline_detailed, dunning_sent, charge_refunded. details.kind names the recorded type where this word is coarser.",
      }),
      detail: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  ),
});

export const getSubscriptionRecoveryStatusSchemas = {
  params: z.object({ id: Id }),
  responses: { 200: z.object({ data: SubscriptionRecoveryStatus, meta: ResponseMeta }) },
} as const;

export const listFailedInvoicesSchemas = {
  params: z.object({ id: Id }),
  query: z.object(offsetPagingQuery),
  responses: { 200: z.object({ data: z.array(FailedInvoice), pagination: OffsetPagination, meta: ResponseMeta }) },
} as const;

export const getInvoiceRecoveryStatusSchemas = {
  params: z.object({ id: Id }),
  responses: { 200: z.object({ data: InvoiceRecoveryStatus, meta: ResponseMeta }) },
} as const;

export const getInvoiceTimelineSchemas = {
  params: z.object({ id: Id }),
  responses: { 200: z.object({ data: InvoiceTimeline, meta: ResponseMeta }) },
} as const;
