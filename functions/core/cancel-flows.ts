import * as z from '#shared/zod';

/**
 * Cancel flows (spec "Cancel flow (B)"): the steps a customer walks before cancelling, and the
 * offers that may save them. A flow is `inactive` when created; activating one deactivates every
 * other flow of the merchant (exactly one active). Limits (docs/cancel-flows.md):
 */
export const CANCEL_FLOW_LIMITS = {
  name: 200,
  steps: 10,
  options: 10,
  stepId: 40,
  title: 200,
  body: 2000,
  buttonLabel: 60,
  optionValue: 100,
  optionLabel: 200,
  offerText: 200,
  maxRedemptionCap: 10,
  maxPercentOff: 100,
  maxPauseMonths: 12,
} as const;

export const CANCEL_FLOW_STATUSES = ['active', 'inactive'] as const;
export type CancelFlowStatus = (typeof CANCEL_FLOW_STATUSES)[number];

export const STEP_TYPES = ['survey', 'offer', 'confirm', 'custom'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const OFFER_TYPES = ['discount', 'pause', 'downgrade', 'custom'] as const;
export type OfferType = (typeof OFFER_TYPES)[number];

export interface CancelFlowOption {
  readonly value: string;
  readonly label: string;
  /** The id of the offer step this answer branches to; null: the next step in order. */
  readonly next_step: string | null;
}

export interface CancelFlowOffer {
  readonly type: OfferType;
  /** discount: percent off (1-100); pause: months (1-12); downgrade: the target plan; custom: what is offered. */
  readonly value: number | string;
  /** discount: months the discount lasts (null: once). */
  readonly duration_months: number | null;
  /** How many times one customer may accept this offer (of this flow), over every session. */
  readonly redemption_cap: number;
}

export interface CancelFlowStep {
  readonly id: string;
  readonly step_type: StepType;
  readonly title: string;
  readonly body: string | null;
  readonly options: readonly CancelFlowOption[];
  readonly button_label: string | null;
  readonly offer: CancelFlowOffer | null;
}

export interface CancelFlowRecord {
  readonly id: string;
  readonly merchant_id: string;
  readonly name: string;
  readonly status: CancelFlowStatus;
  readonly steps: readonly CancelFlowStep[];
  /** Optimistic concurrency: every write checks the version it read. */
  readonly version: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly activated_at: string | null;
  readonly deactivated_at: string | null;
}

const oneLine = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max), z.regex(/^[^\p{Cc}\u2028\u2029]*$/u, 'must be one line of text'));

export const CancelFlowName = oneLine(CANCEL_FLOW_LIMITS.name);
const StepId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1-40 letters, digits, _ or -'));

const OptionInput = z.object({
  value: z.string().check(z.trim(), z.minLength(1), z.maxLength(CANCEL_FLOW_LIMITS.optionValue)),
  label: oneLine(CANCEL_FLOW_LIMITS.optionLabel),
  next_step: z.optional(z.nullable(StepId)),
});

const OfferInput = z.object({
  type: z.enum(OFFER_TYPES),
  value: z.union([z.number(), z.string()]),
  duration_months: z.optional(z.nullable(z.number().check(z.int(), z.gte(1), z.lte(36)))),
  redemption_cap: z.optional(z.number().check(z.int(), z.gte(1), z.lte(CANCEL_FLOW_LIMITS.maxRedemptionCap))),
});

export const CancelFlowStepInput = z.object({
  id: z.optional(StepId),
  step_type: z.enum(STEP_TYPES),
  title: oneLine(CANCEL_FLOW_LIMITS.title),
  body: z.optional(z.nullable(z.string().check(z.maxLength(CANCEL_FLOW_LIMITS.body)))),
  options: z.optional(z.array(OptionInput).check(z.maxLength(CANCEL_FLOW_LIMITS.options))),
  button_label: z.optional(z.nullable(oneLine(CANCEL_FLOW_LIMITS.buttonLabel))),
  offer: z.optional(z.nullable(OfferInput)),
});
type StepInput = z.output<typeof CancelFlowStepInput>;

type Issue = { readonly path: readonly (string | number)[]; readonly message: string; readonly input: unknown };

/** The problems of an offer's value for its type (the path is relative to the offer). */
function offerIssues(offer: z.output<typeof OfferInput>): Issue[] {
  const { type, value } = offer;
  const integerIn = (max: number) => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
  if (type === 'discount' && !integerIn(CANCEL_FLOW_LIMITS.maxPercentOff))
    return [{ path: ['value'], message: 'a discount offer takes the percent off, an integer 1-100', input: value }];
  if (type === 'pause' && !integerIn(CANCEL_FLOW_LIMITS.maxPauseMonths))
    return [{ path: ['value'], message: 'a pause offer takes the months of the pause, an integer 1-12', input: value }];
  if ((type === 'downgrade' || type === 'custom') && (typeof value !== 'string' || value.trim() === '' || value.length > CANCEL_FLOW_LIMITS.offerText))
    return [{ path: ['value'], message: `a ${type} offer takes a text of 1-${CANCEL_FLOW_LIMITS.offerText} characters`, input: value }];
  if (type !== 'discount' && offer.duration_months !== undefined && offer.duration_months !== null)
    return [{ path: ['duration_months'], message: 'only a discount offer has a duration', input: offer.duration_months }];
  return [];
}

/** Every rule across steps: unique ids, options where they belong, an offer on (only) offer steps, branches to an offer step of the flow. */
export function stepsIssues(steps: readonly StepInput[]): Issue[] {
  const issues: Issue[] = [];
  const ids = steps.map((step, index) => step.id ?? `step_${index + 1}`);
  ids.forEach((id, index) => {
    if (ids.indexOf(id) !== index) issues.push({ path: [index, 'id'], message: `duplicate step id "${id}"`, input: id });
  });
  steps.forEach((step, index) => {
    const options = step.options ?? [];
    if (step.step_type === 'survey' && options.length < 2)
      issues.push({ path: [index, 'options'], message: 'a survey step needs at least 2 options', input: options });
    if (step.step_type !== 'survey' && options.length > 0) issues.push({ path: [index, 'options'], message: 'only a survey step has options', input: options });
    const values = options.map((option) => option.value);
    options.forEach((option, at) => {
      if (values.indexOf(option.value) !== at)
        issues.push({ path: [index, 'options', at, 'value'], message: `duplicate option value "${option.value}"`, input: option.value });
      if (option.next_step === undefined || option.next_step === null) return;
      const target = ids.indexOf(option.next_step);
      if (target < 0)
        issues.push({ path: [index, 'options', at, 'next_step'], message: `no step of this flow has the id "${option.next_step}"`, input: option.next_step });
      else if (steps[target]?.step_type !== 'offer')
        issues.push({ path: [index, 'options', at, 'next_step'], message: `step "${option.next_step}" is not an offer step`, input: option.next_step });
      else if (target <= index) issues.push({ path: [index, 'options', at, 'next_step'], message: 'a branch goes to a later step', input: option.next_step });
    });
    const offer = step.offer ?? null;
    if (step.step_type === 'offer' && offer === null) issues.push({ path: [index, 'offer'], message: 'an offer step needs an offer', input: offer });
    if (step.step_type !== 'offer' && offer !== null) issues.push({ path: [index, 'offer'], message: 'only an offer step has an offer', input: offer });
    if (step.step_type === 'offer' && offer !== null) for (const issue of offerIssues(offer)) issues.push({ ...issue, path: [index, 'offer', ...issue.path] });
  });
  return issues;
}

/** The steps of a create or a replace: at most CANCEL_FLOW_LIMITS.steps, checked across steps (a bad branch is 422 naming it). */
export const CancelFlowStepsInput = z.array(CancelFlowStepInput).check(
  z.maxLength(CANCEL_FLOW_LIMITS.steps),
  z.superRefine((steps, ctx) => {
    for (const issue of stepsIssues(steps)) ctx.issues.push({ code: 'custom', input: issue.input, path: [...issue.path], message: issue.message });
  }),
);

/** The stored steps of validated input: ids assigned (`step_<n>` for those without), defaults filled. */
export function normaliseSteps(steps: readonly StepInput[]): CancelFlowStep[] {
  return steps.map((step, index) => ({
    id: step.id ?? `step_${index + 1}`,
    step_type: step.step_type,
    title: step.title,
    body: step.body ?? null,
    options: (step.options ?? []).map((option) => ({ value: option.value, label: option.label, next_step: option.next_step ?? null })),
    button_label: step.button_label ?? null,
    offer:
      step.offer === undefined || step.offer === null
        ? null
        : {
            type: step.offer.type,
            value: typeof step.offer.value === 'string' ? step.offer.value.trim() : step.offer.value,
            duration_months: step.offer.duration_months ?? null,
            redemption_cap: step.offer.redemption_cap ?? 1,
          },
  }));
}
