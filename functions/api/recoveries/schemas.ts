import { z } from 'zod';
import { DECLINE_CATEGORIES } from '../../core/decline-codes/types';
import { PAYMENT_STATUSES } from '../../core/payments';
import { offsetPagingQuery } from '../pipeline/paging-query';

/** A's statuses and B's `active` (pending or retrying), expanded through PAYMENT_STATUS_FILTERS. */
export const RECOVERY_STATUS_FILTERS = [...PAYMENT_STATUSES, 'active'] as const;

const Id = z.string().min(1).max(255);
const Timestamp = z.string();
const Meta = z.object({ timestamp: Timestamp, request_id: z.string(), merchant_id: z.string().optional() });
const Pagination = z.object({ total: z.number().int(), page: z.number().int(), per_page: z.number().int(), total_pages: z.number().int() });

export const Recovery = z.object({
  id: z.string(),
  payment_event_id: z.string(),
  payment_id: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  retry_count: z.number().int(),
  max_retries: z.number().int(),
  next_retry_at: Timestamp.nullable(),
  recovered_at: Timestamp.nullable(),
  psp_payment_id: z.string().nullable(),
  amount: z.number().int(),
  amount_cents: z.number().int(),
  currency: z.string(),
  decline_code: z.string().nullable(),
  decline_category: z.enum(DECLINE_CATEGORIES),
  decline_subcategory: z.string(),
  psp: z.string(),
  customer_id: z.string(),
  subscription_id: z.string().nullable(),
  campaign_id: z.string().nullable(),
  current_step: z.number().int().nullable().meta({ description: "B: the recovery's step in its campaign (1-based); null until campaigns run steps." }),
  total_steps: z.number().int().nullable().meta({ description: "B: the number of steps of the recovery's campaign; null until campaigns run steps." }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const RecoveryDetail = Recovery.extend({
  state_history: z.array(z.object({ status: z.enum(PAYMENT_STATUSES), at: Timestamp, reason: z.string() })),
});

export const DunningTriggered = z.object({
  recovery_id: z.string(),
  payment_event_id: z.string(),
  payment_id: z.string(),
  status: z.enum(['dunning_triggered', 'dunning_scheduled']).describe('`dunning_triggered`: the email is queued to be sent now. `dunning_scheduled`: the merchant\'s quiet hours are on; the email is sent at `scheduled_at`, the end of the quiet period.'),
  sent: z.boolean().describe('B: true when the email is queued to be sent now, false when it is scheduled for the end of the quiet hours.'),
  message_id: z.string(),
  scheduled_at: Timestamp.nullable().describe('When a scheduled email is sent (the end of the quiet period); null when it is sent now.'),
});

const RecoveryIdParams = z.object({ id: Id });

/** Text that goes into an email header: one line, no control characters, line separators or lone surrogates. */
const HeaderText = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[^\p{Cc}\u2028\u2029\uD800-\uDFFF]*$/u, 'must be one line of text without control characters');

/** A template id (`tmpl_…`): visible ASCII, as every id the service issues. */
const TemplateId = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7E]+$/, 'must be an id of visible ASCII characters');

export const listRecoveriesSchemas = {
  query: z.object({
    status: z.enum(RECOVERY_STATUS_FILTERS).optional(),
    campaign_id: Id.optional(),
    ...offsetPagingQuery,
  }),
  responses: { 200: z.object({ data: z.array(Recovery), pagination: Pagination, meta: Meta }) },
} as const;

export const getRecoverySchemas = {
  params: RecoveryIdParams,
  responses: { 200: z.object({ data: RecoveryDetail, meta: Meta }) },
} as const;

/** The body is optional (A sends none): without one, the default email is sent. */
export const triggerDunningSchemas = {
  params: RecoveryIdParams,
  body: z
    .object({
      template_id: TemplateId.optional().describe('The template of the email; until merchant templates exist only `tmpl_dunning_default` (the built-in email) is known, and any other id is 404 with `param: template_id`.'),
      subject: HeaderText.optional(),
    })
    .optional(),
  responses: { 202: z.object({ data: DunningTriggered, meta: Meta }) },
} as const;
