import { z } from 'zod';
import { DECLINE_CATEGORIES } from '../../core/decline-codes/types';
import { PAYMENT_STATUSES, PAYMENT_STATUS_FILTERS, type PaymentStatusFilter } from '../../core/payments';
import { PSPS } from '../../core/providers';
import { offsetPagingQuery } from '../pipeline/paging-query';

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
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .transform((value) => new Date(DAY.test(value) ? `${value}T00:00:00.000Z` : value))
  .refine((at) => !Number.isNaN(at.getTime()), 'not a date')
  .meta({ description: 'ISO 8601 timestamp with a zone (`2026-10-01T12:00:00Z`) or a day (`2026-10-01`, 00:00 UTC).' });

export const PaymentIdParams = z.object({
  // Provider charge ids are free-form; 200 characters keeps every key they make under DynamoDB's 1 KB.
  id: z.string().min(1).max(200).meta({ description: 'The payment (`pe_…`), its recovery (`rec_…`) or the provider charge id.' }),
});

export const ListPaymentsQuery = z
  .object({
    status: z.enum(STATUS_FILTERS).optional().meta({ description: 'A status, or B\'s `failed` (pending, retrying or paused) or `active` (pending or retrying).' }),
    decline_category: z.enum(DECLINE_CATEGORIES).optional(),
    psp: z.enum(PAYMENT_PSPS).optional().meta({ description: 'One of the 13 providers, or `ingest` for payments ingested from another platform.' }),
    created_after: CreatedBound.optional().meta({ description: 'Created at or after (inclusive).' }),
    created_before: CreatedBound.optional().meta({ description: 'Created before (exclusive).' }),
    ...offsetPagingQuery,
  })
  .superRefine((query, context) => {
    if (query.created_after !== undefined && query.created_before !== undefined && query.created_after >= query.created_before) {
      context.addIssue({ code: 'custom', path: ['created_before'], message: 'created_before must be later than created_after' });
    }
  });

const Timestamp = z.string().meta({ format: 'date-time' });
const Status = z.enum(PAYMENT_STATUSES);
const Meta = z.object({ timestamp: Timestamp, request_id: z.string(), merchant_id: z.string().optional() });

/** `paymentView` (functions/api/views.ts): A's fields and B's aliases. */
export const PaymentData = z
  .object({
    id: z.string(),
    recovery_id: z.string(),
    provider_payment_id: z.string().nullable(),
    external_id: z.string().nullable().meta({ description: 'B: the same value as provider_payment_id.' }),
    amount: z.number().int(),
    amount_cents: z.number().int().meta({ description: 'B: the same value as amount.' }),
    currency: z.string(),
    status: Status,
    decline_code: z.string().nullable(),
    decline_category: z.enum(DECLINE_CATEGORIES),
    decline_subcategory: z.string(),
    psp: z.string(),
    customer_id: z.string(),
    customer_email: z.string(),
    retry_count: z.number().int(),
    max_retries: z.number().int(),
    next_retry_at: Timestamp.nullable(),
    paused_at: Timestamp.nullable(),
    previous_status: Status.nullable(),
    recovered_at: Timestamp.nullable(),
    subscription_id: z.string().nullable(),
    invoice_id: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Payment', description: 'A failed payment and the state of its recovery.' });

export const ListPaymentsResponse = z.object({
  data: z.array(PaymentData),
  pagination: z.object({ total: z.number().int(), page: z.number().int(), per_page: z.number().int(), total_pages: z.number().int() }),
  meta: Meta,
});

export const PaymentResponse = z.object({ data: PaymentData, meta: Meta });

export const TimelineEventData = z
  .object({
    type: z.string().meta({
      description:
        "The spec's word: payment_failed, retry_scheduled, retry_succeeded (B), retry (A: an attempt made, declined or unanswered), status_change (pause, resume, terminal); else payment_method_updated, awaiting_card_update, decline_detailed, dunning_sent, charge_refunded. details.kind names the recorded type where this word is coarser.",
    }),
    timestamp: Timestamp,
    detail: z.string().meta({ description: 'A: what happened, as text.' }),
    details: z.record(z.string(), z.unknown()).meta({ description: 'B: what happened, as fields.' }),
  })
  .meta({ id: 'TimelineEvent' });

export const PaymentTimelineResponse = z.object({
  data: z.object({ payment_id: z.string(), events: z.array(TimelineEventData).meta({ description: 'Oldest first.' }) }),
  meta: Meta,
});

export const RetryPaymentResponse = z.object({
  data: z.object({
    payment_id: z.string(),
    status: z.enum(['retry_initiated', 'retry_scheduled']).meta({
      description: 'retry_initiated: the attempt is queued now for the retry executor (its next run, within a minute); retry_scheduled: quiet hours or a card-network cap deferred it to scheduled_at.',
    }),
    payment_status: Status.meta({ description: 'The payment after the request: retrying.' }),
    next_retry_at: Timestamp.meta({ description: 'When the attempt is due: now, or the end of the quiet hours or cap.' }),
    reason: z.string().meta({ description: 'Why the attempt is due when it is (the state_history reason).' }),
    retry_scheduled: z.boolean().meta({ description: 'B: true, a retry is scheduled (at scheduled_at).' }),
    retry_number: z.number().int().meta({ description: 'The number of the attempt queued (retry_count + 1).' }),
    scheduled_at: Timestamp.meta({ description: 'B: the same value as next_retry_at.' }),
  }),
  meta: Meta,
});

export const PausePaymentResponse = z.object({
  ok: z.literal(true),
  data: z.object({
    id: z.string(),
    payment_id: z.string().meta({ description: 'B: the same value as id.' }),
    status: z.literal('paused'),
    paused_at: Timestamp,
    previous_status: z.enum(['pending', 'retrying']),
  }),
  meta: Meta,
});

export const ResumePaymentResponse = z.object({
  ok: z.literal(true),
  data: z.object({
    id: z.string(),
    payment_id: z.string().meta({ description: 'B: the same value as id.' }),
    status: z.enum(['pending', 'retrying']).meta({ description: 'The status held before the pause.' }),
    resumed_at: Timestamp,
    next_retry_at: Timestamp.nullable(),
  }),
  meta: Meta,
});

export const listPaymentsSchemas = { query: ListPaymentsQuery, responses: { 200: ListPaymentsResponse } } as const;
export const getPaymentSchemas = { params: PaymentIdParams, responses: { 200: PaymentResponse } } as const;
export const getPaymentTimelineSchemas = { params: PaymentIdParams, responses: { 200: PaymentTimelineResponse } } as const;
export const retryPaymentSchemas = { params: PaymentIdParams, responses: { 202: RetryPaymentResponse } } as const;
export const pausePaymentSchemas = { params: PaymentIdParams, responses: { 200: PausePaymentResponse } } as const;
export const resumePaymentSchemas = { params: PaymentIdParams, responses: { 200: ResumePaymentResponse } } as const;
