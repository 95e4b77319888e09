import * as z from '#shared/zod';
import { DECLINE_CATEGORIES } from '#core/decline-codes/types';
import { PAYMENT_STATUSES } from '#core/payments';
import { RECOVERY_METHODS } from '#core/recovery-method';
import { CAMPAIGN_STEP_ACTIONS } from '#core/campaigns/types';
import { ENROLLMENT_STATUSES } from '#core/enrollments';
import { offsetPagingQuery } from '#api/pipeline/paging-query';
import { OffsetPagination, ResponseMeta } from '#api/envelope-schemas';

/** A's statuses and B's `active` (pending or retrying), expanded through PAYMENT_STATUS_FILTERS. */
export const RECOVERY_STATUS_FILTERS = [...PAYMENT_STATUSES, 'active'] as const;

const Id = z.string().check(z.minLength(1), z.maxLength(255));
const Timestamp = z.string();

export const Recovery = z.object({
  id: z.string(),
  payment_event_id: z.string(),
  payment_id: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  retry_count: z.number().check(z.int()),
  max_retries: z.number().check(z.int()),
  next_retry_at: z.nullable(Timestamp),
  recovered_at: z.nullable(Timestamp),
  recovery_method: z.nullable(z.enum(RECOVERY_METHODS)).clone().register(z.globalRegistry, {
    description:
      'What recovered the payment, decided when it was recovered (docs/analytics.md, Recovery attribution): `campaign_email` or `campaign_sms` when a campaign it was enrolled in (not stopped) had already sent it a message on that channel (the last one wins; WhatsApp counts as sms), else `card_update` when the customer updated the card before it was recovered, else `retry` when one of our retries charged it, else `provider` (the provider reported it paid). Null while not recovered, and for payments recovered before attribution was recorded.',
  }),
  psp_payment_id: z.nullable(z.string()),
  amount: z.number().check(z.int()),
  amount_cents: z.number().check(z.int()),
  currency: z.string(),
  decline_code: z.nullable(z.string()),
  decline_category: z.enum(DECLINE_CATEGORIES),
  decline_subcategory: z.string(),
  psp: z.string(),
  customer_id: z.string(),
  subscription_id: z.nullable(z.string()),
  campaign_id: z.nullable(z.string()),
  current_step: z.nullable(z.number().check(z.int())).clone().register(z.globalRegistry, {
    description:
      "B: the recovery's step in its campaign (1-based): the next step to run, or the last one run once the enrollment ended (0 when it ended before its first step); null until enrolled.",
  }),
  total_steps: z
    .nullable(z.number().check(z.int()))
    .clone()
    .register(z.globalRegistry, { description: "B: the number of steps of the recovery's campaign; null until enrolled." }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** One step of the recovery's campaign and what became of it (B detail). */
export const CampaignStepProgress = z.object({
  index: z.number().check(z.int()),
  action: z.enum(CAMPAIGN_STEP_ACTIONS),
  template_id: z.nullable(z.string()),
  delay_hours: z.number(),
  status: z.enum(['done', 'pending', 'skipped']).clone().register(z.globalRegistry, {
    description:
      '`done`: it ran; `skipped`: it ran without effect (no address for the channel, a retry the retry engine refused, max_attempts reached) or the enrollment ended before it; `pending`: still to run.',
  }),
  at: z
    .nullable(Timestamp)
    .clone()
    .register(z.globalRegistry, { description: 'When it ran, or when it is due (the next step of an active enrollment); null for later steps.' }),
  outcome: z.nullable(z.string()),
  message_id: z.nullable(z.string()),
});

export const RecoveryDetail = z.extend(Recovery, {
  state_history: z.array(z.object({ status: z.enum(PAYMENT_STATUSES), at: Timestamp, reason: z.string() })),
  campaign_status: z.nullable(z.enum(ENROLLMENT_STATUSES)).clone().register(z.globalRegistry, {
    description:
      "B: the recovery's enrollment in its campaign: active, completed (every step ran), recovered, stopped (see campaign_end_reason); null when not enrolled.",
  }),
  campaign_end_reason: z.nullable(z.string()),
  campaign_steps: z
    .nullable(z.array(CampaignStepProgress))
    .clone()
    .register(z.globalRegistry, { description: "B: the campaign's steps with each one's status; null when not enrolled." }),
});

export const DunningTriggered = z.object({
  recovery_id: z.string(),
  payment_event_id: z.string(),
  payment_id: z.string(),
  status: z.enum(['dunning_triggered', 'dunning_scheduled']).clone().register(z.globalRegistry, {
    description:
      "`dunning_triggered`: the email is queued to be sent now. `dunning_scheduled`: the merchant's quiet hours are on; the email is sent at `scheduled_at`, the end of the quiet period.",
  }),
  sent: z
    .boolean()
    .clone()
    .register(z.globalRegistry, { description: 'B: true when the email is queued to be sent now, false when it is scheduled for the end of the quiet hours.' }),
  message_id: z.string(),
  scheduled_at: z
    .nullable(Timestamp)
    .clone()
    .register(z.globalRegistry, { description: 'When a scheduled email is sent (the end of the quiet period); null when it is sent now.' }),
});

const RecoveryIdParams = z.object({ id: Id });

/** Text that goes into an email header: one line, no control characters, line separators or lone surrogates. */
const HeaderText = z
  .string()
  .check(z.trim(), z.minLength(1), z.maxLength(255), z.regex(/^[^\p{Cc}\u2028\u2029\uD800-\uDFFF]*$/u, 'must be one line of text without control characters'));

/** A template id (`tmpl_…`): visible ASCII, as every id the service issues. */
const TemplateId = z.string().check(z.minLength(1), z.maxLength(255), z.regex(/^[\x21-\x7E]+$/, 'must be an id of visible ASCII characters'));

export const listRecoveriesSchemas = {
  query: z.object({
    status: z.optional(z.enum(RECOVERY_STATUS_FILTERS)),
    campaign_id: z.optional(Id),
    ...offsetPagingQuery,
  }),
  responses: { 200: z.object({ data: z.array(Recovery), pagination: OffsetPagination, meta: ResponseMeta }) },
} as const;

export const getRecoverySchemas = {
  params: RecoveryIdParams,
  responses: { 200: z.object({ data: RecoveryDetail, meta: ResponseMeta }) },
} as const;

/** The body is optional (A sends none): without one, the default email is sent. */
export const triggerDunningSchemas = {
  params: RecoveryIdParams,
  body: z.optional(
    z.object({
      template_id: z.optional(TemplateId).clone().register(z.globalRegistry, {
        description:
          'The template of the email; until merchant templates exist only `tmpl_dunning_default` (the built-in email) is known, and any other id is 404 with `param: template_id`.',
      }),
      subject: z.optional(HeaderText),
    }),
  ),
  responses: { 202: z.object({ data: DunningTriggered, meta: ResponseMeta }) },
} as const;
