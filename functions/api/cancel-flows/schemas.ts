import * as z from '#shared/zod';
import { CANCEL_FLOW_LIMITS, CANCEL_FLOW_STATUSES, CancelFlowName, CancelFlowStepsInput, OFFER_TYPES, STEP_TYPES } from '#core/cancel-flows';
import { DateTime, described, OffsetPagination, ResponseMeta } from '#api/envelope-schemas';
import { offsetPagingQuery } from '#api/pipeline/paging-query';

const Int = z.number().check(z.int());

const Step = z.object({
  id: described(z.string(), 'The step id: given in the request, else `step_<n>` (its position from 1).'),
  step_type: z.enum(STEP_TYPES),
  title: z.string(),
  body: z.nullable(z.string()),
  options: z.array(
    z.object({
      value: z.string(),
      label: z.string(),
      next_step: described(z.nullable(z.string()), 'The offer step this answer branches to; null: the next step in order.'),
    }),
  ),
  button_label: z.nullable(z.string()),
  offer: z.nullable(
    z.object({
      type: z.enum(OFFER_TYPES),
      value: described(
        z.union([z.number(), z.string()]),
        'discount: percent off (1-100); pause: months (1-12); downgrade: the target plan; custom: what is offered.',
      ),
      duration_months: described(z.nullable(Int), 'discount only: the months it lasts; null: the next invoice.'),
      redemption_cap: described(Int, 'How many times one customer may accept this offer (default 1, at most 10).'),
    }),
  ),
});

export const CancelFlowStats = z.object({
  started: Int,
  completed: Int,
  in_progress_or_expired: described(Int, 'Started and never completed: still running, or their 24 h ran out.'),
  cancelled: Int,
  abandoned: described(Int, 'Completed as abandoned: reported apart, never counted as saves.'),
  saved: z.object({ saved_discount: Int, saved_pause: Int, saved_other: Int, total: Int }),
  save_window_closed: described(Int, 'Completed, not abandoned sessions whose 30 days after completion are over (re-checked by the daily task).'),
  save_confirmed: described(Int, 'Saved sessions whose customer was still subscribed 30 days later.'),
  save_lost: described(Int, 'Saved sessions whose customer cancelled or churned within 30 days.'),
  save_rate: described(z.nullable(z.number()), 'save_confirmed / save_window_closed (0-1); null until a window has closed.'),
});

export const CancelFlow = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(CANCEL_FLOW_STATUSES),
  is_active: z.boolean(),
  steps: z.array(Step),
  stats: CancelFlowStats,
  created_at: DateTime,
  updated_at: DateTime,
  activated_at: z.nullable(DateTime),
  deactivated_at: z.nullable(DateTime),
});

const FlowParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(255)) });
const single = { 200: z.object({ data: CancelFlow, meta: ResponseMeta }) };
const Steps = described(
  CancelFlowStepsInput,
  `At most ${CANCEL_FLOW_LIMITS.steps} steps, walked in order. A survey has 2-${CANCEL_FLOW_LIMITS.options} options, each of which may branch (next_step) to a later offer step; an offer step has an offer; confirm and custom steps have neither.`,
);

export const listCancelFlowsSchemas = {
  query: z.object({ status: z.optional(z.enum(CANCEL_FLOW_STATUSES)), ...offsetPagingQuery }),
  responses: { 200: z.object({ data: z.array(CancelFlow), pagination: OffsetPagination, meta: ResponseMeta }) },
} as const;

export const createCancelFlowSchemas = {
  body: z.object({ name: described(CancelFlowName, '1-200 characters.'), steps: z.optional(Steps) }),
  responses: { 201: z.object({ data: CancelFlow, meta: ResponseMeta }) },
  errorStatuses: [409],
} as const;

export const updateCancelFlowSchemas = {
  params: FlowParams,
  body: z.object({ name: z.optional(CancelFlowName), steps: Steps }),
  responses: single,
  errorStatuses: [409],
} as const;

export const deleteCancelFlowSchemas = { params: FlowParams, responses: { 204: z.undefined() }, errorStatuses: [409] } as const;
export const activateCancelFlowSchemas = { params: FlowParams, responses: single, errorStatuses: [409] } as const;
export const deactivateCancelFlowSchemas = { params: FlowParams, responses: single, errorStatuses: [409] } as const;
