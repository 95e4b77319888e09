import * as z from '#shared/zod';
import { CUSTOMER_SEGMENTS } from '#core/campaigns/failure';
import { A_TRIGGER_TYPES, TRIGGER_INPUTS } from '#core/campaigns/triggers';
import { CAMPAIGN_STATUSES, CAMPAIGN_STEP_ACTIONS } from '#core/campaigns/types';
import { CampaignName, CampaignStepsInput, DelayHours, Hour, MaxAttempts } from '#core/campaigns/validation';
import { AmountsByCurrency, DateTime, OffsetPagination, ResponseMeta } from '#api/envelope-schemas';
import { offsetPagingQuery } from '#api/pipeline/paging-query';

const Id = z.string().check(z.minLength(1), z.maxLength(255));
const Int = z.number().check(z.int());
/** A copy of the schema with a description for the OpenAPI document. */
function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  z.globalRegistry.add(copy, { description });
  return copy;
}

export const CampaignStep = z.object({
  action: z.enum(CAMPAIGN_STEP_ACTIONS),
  delay_hours: described(z.number(), 'Hours after the previous step (after the campaign delay_hours for the first step).'),
  template_id: z.nullable(z.string()),
  subject: z.optional(z.string()),
});

export const CampaignFilters = z.object({
  amount_min: z.optional(Int),
  amount_max: z.optional(Int),
  currency: z.optional(z.array(z.string())),
  psp: z.optional(z.array(z.string())),
  decline_category: z.optional(z.array(z.string())),
  decline_code: z.optional(z.array(z.string())),
  customer_segment: z.optional(z.array(z.enum(CUSTOMER_SEGMENTS))),
});

const Stats = z.object({ enrolled: Int, active: Int, recovered: Int, stopped: Int, completed: Int, messages_sent: Int });

/** The campaign as both forms read it: A's fields, B's `trigger` and `filters_json`, and the detail (stats, performance). */
export const Campaign = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  trigger: described(z.string(), 'The canonical trigger (B values, plus payment_failed_hard and subscription_past_due, which only A has).'),
  trigger_type: described(z.nullable(z.enum(A_TRIGGER_TYPES)), "A's trigger_type for the trigger; null where A has none."),
  filters: CampaignFilters,
  filters_json: described(z.string(), 'The normalised filters as JSON text (B).'),
  steps: z.array(CampaignStep),
  total_steps: Int,
  delay_hours: z.number(),
  max_attempts: Int,
  stop_on_recovery: z.boolean(),
  stop_on_card_update: z.boolean(),
  start_hour: Int,
  end_hour: Int,
  stats: Stats,
  performance: z.object({ enrolled: Int, active: Int, recovered: Int, recovery_rate: described(z.number(), 'recovered / enrolled; 0 before any enrollment.') }),
  sending_paused: described(
    z.nullable(z.object({ since: DateTime, reason: z.string(), bounce_rate: z.number(), complaint_rate: z.number() })),
    "The merchant's email sending, paused since `since` because its bounce rate passed 2.5% or its complaint rate 0.08% over the last 30 days (emails are held, not lost, until an operator resumes sending); null while sending runs.",
  ),
  source_template_id: z.nullable(z.string()),
  created_at: DateTime,
  updated_at: DateTime,
  activated_at: z.nullable(DateTime),
  paused_at: z.nullable(DateTime),
  archived_at: z.nullable(DateTime),
  completed_at: z.nullable(DateTime),
});

const CampaignParams = z.object({ id: Id });
const single = { 200: z.object({ data: Campaign, meta: ResponseMeta }) };
const created = { 201: z.object({ data: Campaign, meta: ResponseMeta }) };

const FiltersJson = described(
  z.string().check(z.maxLength(10_000)),
  'JSON text of an object: amount_min, amount_max, currency, psp, decline_category, decline_code, customer_segment.',
);
const FiltersObject = described(
  z.union([z.string().check(z.maxLength(10_000)), z.record(z.string(), z.unknown())]),
  'B (update): the filters as an object, or as JSON text; the same fields as filters_json.',
);

/** Fields of a create and an update; `trigger_type` (A) and `trigger` (B) name the same trigger. */
const campaignFields = {
  trigger_type: z.optional(z.enum(A_TRIGGER_TYPES)),
  trigger: z.optional(z.enum(TRIGGER_INPUTS)),
  filters_json: z.optional(FiltersJson),
  filters: z.optional(FiltersObject),
  delay_hours: z.optional(DelayHours),
  max_attempts: z.optional(MaxAttempts),
  stop_on_recovery: z.optional(z.boolean()),
  stop_on_card_update: z.optional(z.boolean()),
  start_hour: z.optional(Hour),
  end_hour: z.optional(Hour),
};

export const listCampaignsSchemas = {
  query: z.object({ status: z.optional(z.enum(CAMPAIGN_STATUSES)), trigger: z.optional(z.enum(TRIGGER_INPUTS)), ...offsetPagingQuery }),
  responses: { 200: z.object({ data: z.array(Campaign), pagination: OffsetPagination, meta: ResponseMeta }) },
} as const;

export const getCampaignSchemas = { params: CampaignParams, responses: single } as const;

export const createCampaignSchemas = {
  body: z.object({ name: CampaignName, steps: CampaignStepsInput, ...campaignFields }),
  responses: created,
} as const;

export const updateCampaignSchemas = {
  params: CampaignParams,
  body: z.object({ name: z.optional(CampaignName), steps: z.optional(CampaignStepsInput), ...campaignFields }),
  responses: single,
} as const;

export const activateCampaignSchemas = { params: CampaignParams, responses: single } as const;
export const pauseCampaignSchemas = { params: CampaignParams, responses: single } as const;
export const archiveCampaignSchemas = { params: CampaignParams, responses: single } as const;

export const CampaignTemplate = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  trigger: z.string(),
  trigger_type: z.nullable(z.enum(A_TRIGGER_TYPES)),
  filters: CampaignFilters,
  filters_json: z.string(),
  steps: z.array(CampaignStep),
  total_steps: Int,
  delay_hours: z.number(),
  max_attempts: Int,
  stop_on_recovery: z.boolean(),
  stop_on_card_update: z.boolean(),
  start_hour: Int,
  end_hour: Int,
  duration_days: z.number(),
  messages: z.object({ email: Int, sms: Int, whatsapp: Int }),
  retries: Int,
  source: described(z.string(), 'Where the cadence comes from.'),
});

export const listCampaignTemplatesSchemas = {
  responses: { 200: z.object({ data: z.array(CampaignTemplate), meta: ResponseMeta }) },
} as const;

export const createCampaignFromTemplateSchemas = {
  body: z.object({ template_id: Id, name: z.optional(CampaignName) }),
  responses: created,
} as const;

const Trigger = z.enum(TRIGGER_INPUTS);

export const CampaignOverlap = z.object({
  trigger: z.string(),
  trigger_type: z.nullable(z.enum(A_TRIGGER_TYPES)),
  filters: CampaignFilters,
  lookback_days: Int,
  window_start: DateTime,
  matching_payments: described(Int, 'Payments failed in the window that this trigger and these filters match.'),
  has_overlap: z.boolean(),
  overlaps: z.array(
    z.object({
      campaign_id: z.string(),
      name: z.string(),
      trigger: z.string(),
      trigger_type: z.nullable(z.enum(A_TRIGGER_TYPES)),
      overlapping_payments: described(Int, 'Payments failed in the window that both this trigger and filters and the campaign match.'),
      enrolls_overlap_in: described(
        z.enum(['this_campaign', 'existing_campaign']),
        'Which of the two a payment both match would enroll in, by the specificity rule, once this campaign is active.',
      ),
    }),
  ),
  items_read: Int,
  truncated: described(z.boolean(), 'True when the read stopped at its bound before the window start: counts cover the newest payments only.'),
});

export const checkCampaignOverlapSchemas = {
  body: z.object({ trigger: Trigger, filters_json: z.optional(FiltersJson), exclude_campaign_id: z.optional(Id) }),
  responses: { 200: z.object({ data: CampaignOverlap, meta: ResponseMeta }) },
} as const;

const Recoveries = z.object({ recoveries: z.number(), recovery_rate: z.number(), amount_by_currency: AmountsByCurrency });

export const CampaignSimulation = z.object({
  trigger: z.string(),
  trigger_type: z.nullable(z.enum(A_TRIGGER_TYPES)),
  filters: CampaignFilters,
  steps: z.array(CampaignStep),
  steps_source: described(z.string(), '`request`, or `template:<id>` when no steps were given.'),
  lookback_days: Int,
  window_start: DateTime,
  window_end: DateTime,
  payments_considered: Int,
  would_enroll: Int,
  messages: z.object({ email: Int, sms: Int, whatsapp: Int, total: Int }),
  retries: Int,
  steps_stopped_by_recovery: Int,
  enrolled_amount_by_currency: AmountsByCurrency,
  expected_recoveries: z.object({ catalogue: Recoveries, history: Recoveries }),
  items_read: z.object({ payments: Int, customers: Int, total: Int }),
  truncated: z.boolean(),
  note: z.nullable(z.string()),
});

export const simulateCampaignSchemas = {
  body: z.object({
    trigger: Trigger,
    filters_json: z.optional(FiltersJson),
    steps: z.optional(CampaignStepsInput),
    delay_hours: z.optional(DelayHours),
    stop_on_recovery: z.optional(z.boolean()),
    lookback_days: z._default(z.number().check(z.int(), z.gte(1), z.lte(365)), 30),
  }),
  responses: { 200: z.object({ data: CampaignSimulation, meta: ResponseMeta }) },
} as const;
