import * as z from '#shared/zod';
import { DECLINE_CATEGORIES } from '#core/decline-codes/types';
import { PAYMENT_STATUSES, PAYMENT_STATUS_FILTERS, type PaymentStatusFilter } from '#core/payments';
import { RECOVERY_METHODS } from '#core/recovery-method';
import { PSPS } from '#core/providers';
import { offsetPagingQuery } from '#api/pipeline/paging-query';
import { ResponseMeta } from '#api/envelope-schemas';

/**
 * The psp values a payment may carry: the 13 providers, and `ingest` for payments ingested from a
 * platform that is none of them (INGEST_PSP, functions/core/ingest/ingest-event.ts; not imported
 * here so that the payments group does not bundle the decline catalogue it brings).
 */
export const PAYMENT_PSPS = [...PSPS, 'ingest'] as const;

const STATUS_FILTERS = Object.keys(PAYMENT_STATUS_FILTERS) as [PaymentStatusFilter, ...PaymentStatusFilter[]];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A bound of the created range: an ISO 8601 timestamp with its zone (A), or a day `YYYY-MM-DD`
 * (B), which stands for 00:00 UTC of that day.
 */
const CreatedBound = z
  .pipe(
    z.union([z.iso.date(), z.iso.datetime({ offset: true })]),
    z.transform((value) => new Date(DAY.test(value) ? `${value}T00:00:00.000Z` : value)),
  )
  .check(z.refine((at) => !Number.isNaN(at.getTime()), 'not a date'))
  .clone()
  .register(z.globalRegistry, { description: 'ISO 8601 timestamp with a zone (`2026-10-01T12:00:00Z`) or a day (`2026-10-01`, 00:00 UTC).' });

export const PaymentIdParams = z.object({
  // Provider charge ids are free-form; 200 characters keeps every key they make under DynamoDB's 1 KB.
  id: z
    .string()
    .check(z.minLength(1), z.maxLength(200))
    .clone()
    .register(z.globalRegistry, { description: 'The payment (`pe_…`), its recovery (`rec_…`) or the provider charge id.' }),
});

export const ListPaymentsQuery = z
  .object({
    status: z
      .optional(z.enum(STATUS_FILTERS))
      .clone()
      .register(z.globalRegistry, { description: "A status, or B's `failed` (pending, retrying or paused) or `active` (pending or retrying)." }),
    decline_category: z.optional(z.enum(DECLINE_CATEGORIES)),
    psp: z
      .optional(z.enum(PAYMENT_PSPS))
      .clone()
      .register(z.globalRegistry, { description: 'One of the 13 providers, or `ingest` for payments ingested from another platform.' }),
    created_after: z.optional(CreatedBound).clone().register(z.globalRegistry, { description: 'Created at or after (inclusive).' }),
    created_before: z.optional(CreatedBound).clone().register(z.globalRegistry, { description: 'Created before (exclusive).' }),
    ...offsetPagingQuery,
  })
  .check(
    z.superRefine((query, context) => {
      if (query.created_after !== undefined && query.created_before !== undefined && query.created_after >= query.created_before) {
        context.addIssue({ code: 'custom', path: ['created_before'], message: 'created_before must be later than created_after' });
      }
    }),
  );

const Timestamp = z.string().clone().register(z.globalRegistry, { format: 'date-time' });
const Status = z.enum(PAYMENT_STATUSES);

/** `paymentView` (functions/api/views.ts): A's fields and B's aliases. */
export const PaymentData = z
  .object({
    id: z.string(),
    recovery_id: z.string(),
    provider_payment_id: z.nullable(z.string()),
    external_id: z.nullable(z.string()).clone().register(z.globalRegistry, { description: 'B: the same value as provider_payment_id.' }),
    amount: z.number().check(z.int()),
    amount_cents: z.number().check(z.int()).clone().register(z.globalRegistry, { description: 'B: the same value as amount.' }),
    currency: z.string(),
    status: Status,
    decline_code: z.nullable(z.string()),
    decline_category: z.enum(DECLINE_CATEGORIES),
    decline_subcategory: z.string(),
    psp: z.string(),
    customer_id: z.string(),
    customer_email: z.string(),
    retry_count: z.number().check(z.int()),
    max_retries: z.number().check(z.int()),
    next_retry_at: z.nullable(Timestamp),
    paused_at: z.nullable(Timestamp),
    previous_status: z.nullable(Status),
    recovered_at: z.nullable(Timestamp),
    recovery_method: z.nullable(z.enum(RECOVERY_METHODS)).clone().register(z.globalRegistry, {
      description:
        'What recovered the payment, decided when it was recovered (docs/analytics.md, Recovery attribution): `campaign_email` or `campaign_sms` when a campaign it was enrolled in (not stopped) had already sent it a message on that channel (the last one wins; WhatsApp counts as sms), else `card_update` when the customer updated the card before it was recovered, else `retry` when one of our retries charged it, else `provider` (the provider reported it paid). Null while not recovered, and for payments recovered before attribution was recorded.',
    }),
    subscription_id: z.nullable(z.string()),
    invoice_id: z.nullable(z.string()),
    metadata: z.record(z.string(), z.unknown()),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .clone()
  .register(z.globalRegistry, { id: 'Payment', description: 'A failed payment and the state of its recovery.' });

export const ListPaymentsResponse = z.object({
  data: z.array(PaymentData),
  pagination: z.object({
    total: z.number().check(z.int()),
    page: z.number().check(z.int()),
    per_page: z.number().check(z.int()),
    total_pages: z.number().check(z.int()),
  }),
  meta: ResponseMeta,
});

export const PaymentResponse = z.object({ data: PaymentData, meta: ResponseMeta });

export const TimelineEventData = z
  .object({
    type: z.string().clone().register(z.globalRegistry, {
      description:
        "The spec's word: payment_failed, retry_scheduled, retry_succeeded (B), retry (A: an attempt made, declined or unanswered), status_change (pause, resume, terminal); else payment_method_updated, awaiting_card_update, decline_detailed, dunning_sent, charge_refunded. details.kind names the recorded type where this word is coarser.",
    }),
    timestamp: Timestamp,
    detail: z.string().clone().register(z.globalRegistry, { description: 'A: what happened, as text.' }),
    details: z.record(z.string(), z.unknown()).clone().register(z.globalRegistry, { description: 'B: what happened, as fields.' }),
  })
  .clone()
  .register(z.globalRegistry, { id: 'TimelineEvent' });

export const PaymentTimelineResponse = z.object({
  data: z.object({ payment_id: z.string(), events: z.array(TimelineEventData).clone().register(z.globalRegistry, { description: 'Oldest first.' }) }),
  meta: ResponseMeta,
});

export const RetryPaymentResponse = z.object({
  data: z.object({
    payment_id: z.string(),
    status: z.enum(['retry_initiated', 'retry_scheduled']).clone().register(z.globalRegistry, {
      description:
        'retry_initiated: the attempt is queued now for the retry executor (its next run, within a minute); retry_scheduled: quiet hours or a card-network cap deferred it to scheduled_at.',
    }),
    payment_status: Status.clone().register(z.globalRegistry, { description: 'The payment after the request: retrying.' }),
    next_retry_at: Timestamp.clone().register(z.globalRegistry, { description: 'When the attempt is due: now, or the end of the quiet hours or cap.' }),
    reason: z.string().clone().register(z.globalRegistry, { description: 'Why the attempt is due when it is (the state_history reason).' }),
    retry_scheduled: z.boolean().clone().register(z.globalRegistry, { description: 'B: true, a retry is scheduled (at scheduled_at).' }),
    retry_number: z.number().check(z.int()).clone().register(z.globalRegistry, { description: 'The number of the attempt queued (retry_count + 1).' }),
    scheduled_at: Timestamp.clone().register(z.globalRegistry, { description: 'B: the same value as next_retry_at.' }),
  }),
  meta: ResponseMeta,
});

export const PausePaymentResponse = z.object({
  ok: z.literal(true),
  data: z.object({
    id: z.string(),
    payment_id: z.string().clone().register(z.globalRegistry, { description: 'B: the same value as id.' }),
    status: z.literal('paused'),
    paused_at: Timestamp,
    previous_status: z.enum(['pending', 'retrying']),
  }),
  meta: ResponseMeta,
});

export const ResumePaymentResponse = z.object({
  ok: z.literal(true),
  data: z.object({
    id: z.string(),
    payment_id: z.string().clone().register(z.globalRegistry, { description: 'B: the same value as id.' }),
    status: z.enum(['pending', 'retrying']).clone().register(z.globalRegistry, { description: 'The status held before the pause.' }),
    resumed_at: Timestamp,
    next_retry_at: z.nullable(Timestamp),
  }),
  meta: ResponseMeta,
});

export const listPaymentsSchemas = { query: ListPaymentsQuery, responses: { 200: ListPaymentsResponse } } as const;
export const getPaymentSchemas = { params: PaymentIdParams, responses: { 200: PaymentResponse } } as const;
export const getPaymentTimelineSchemas = { params: PaymentIdParams, responses: { 200: PaymentTimelineResponse } } as const;
export const retryPaymentSchemas = { params: PaymentIdParams, responses: { 202: RetryPaymentResponse } } as const;
export const pausePaymentSchemas = { params: PaymentIdParams, responses: { 200: PausePaymentResponse } } as const;
export const resumePaymentSchemas = { params: PaymentIdParams, responses: { 200: ResumePaymentResponse } } as const;
