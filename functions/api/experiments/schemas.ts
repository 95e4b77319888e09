import * as z from '#shared/zod';
import { EXPERIMENT_KINDS, EXPERIMENT_SOURCES, EXPERIMENT_STATUSES } from '#core/experiments/experiment';
import { RESULT_REASONS } from '#core/experiments/results';
import { DateTime, described, OffsetPagination, ResponseMeta } from '#api/envelope-schemas';
import { offsetPagingQuery } from '#api/pipeline/paging-query';

/** `true` / `false` only. */
const booleanQuery = z.pipe(
  z.enum(['true', 'false']),
  z.transform((value) => value === 'true'),
);

/** The kinds listed: recovery strategies, and the campaigns' email A/B tests. */
export const LISTED_KINDS = [...EXPERIMENT_KINDS, 'email_subject'] as const;

const Id = z.string().check(z.minLength(1), z.maxLength(255));
const Rate = z.nullable(z.number());
const Interval = z.nullable(z.object({ level: z.number(), lower: z.number(), upper: z.number() }));

export const ExperimentVariantData = z.object({
  key: described(z.string(), '`control` (the first variant), `treatment`, `treatment_2`, ...'),
  name: z.string(),
  is_control: z.boolean(),
  setting: described(
    z.record(z.string(), z.unknown()),
    'What the variant does, by kind: retry_timing {delay_hours, payday_aligned, stop_decline_codes}; campaign {campaign_id}; channel {channels}; offer {offer_type, offer_value}; email_subject {subject, template_id}.',
  ),
});

export const ExperimentData = z
  .object({
    id: described(z.string(), '`xp_…` for recovery experiments, `abt_…` for email A/B tests of campaigns.'),
    object: z.literal('experiment'),
    name: z.string(),
    kind: z.enum(LISTED_KINDS),
    status: described(z.enum(EXPERIMENT_STATUSES), 'running; stopped (assignment frozen: everyone gets the control); promoted (the winner is the default).'),
    variants: z.array(ExperimentVariantData),
    seed: described(z.string(), 'The assignment hash seed (fixed at start).'),
    minimum_sample_per_variant: described(z.number().check(z.int()), 'Exposures every variant needs before a winner is declared.'),
    source: z.object({ type: z.enum(EXPERIMENT_SOURCES), id: z.nullable(z.string()) }),
    winner: z.nullable(z.string()),
    started_at: DateTime,
    stopped_at: z.nullable(DateTime),
    promoted_at: z.nullable(DateTime),
  })
  .clone()
  .register(z.globalRegistry, {
    id: 'Experiment',
    description:
      'A recovery experiment (retry timing, campaign, channel or offer) or an email A/B test of a campaign. Started by an applied suggestion or the operator CLI: there is no create route.',
  });

const IdParams = z.object({ id: Id });

export const listExperimentsSchemas = {
  query: z.object({
    status: z.optional(described(z.enum(EXPERIMENT_STATUSES), 'Only experiments in this status.')),
    kind: z.optional(described(z.enum(LISTED_KINDS), 'Only experiments of this kind.')),
    ...offsetPagingQuery,
  }),
  responses: { 200: z.object({ data: z.array(ExperimentData), pagination: OffsetPagination, meta: ResponseMeta }) },
} as const;

export const getExperimentSchemas = { params: IdParams, responses: { 200: z.object({ data: ExperimentData, meta: ResponseMeta }) } } as const;

export const VariantResultData = z.object({
  key: z.string(),
  name: z.string(),
  is_control: z.boolean(),
  exposures: described(z.number().check(z.int()), 'Customers assigned to the variant.'),
  conversions: described(z.number().check(z.int()), 'Of them, those with a payment recovered after the assignment.'),
  rate: described(Rate, 'conversions / exposures; null with no exposure.'),
  confidence_interval: described(Interval, '95% Wilson score interval of the rate.'),
  probability_to_beat_control: described(Rate, 'Beta-Binomial posterior P(rate > control rate); null for the control.'),
  relative_lift: described(Rate, '(rate − control rate) / control rate.'),
  minimum_sample_reached: z.boolean(),
});

export const ExperimentResultsData = z
  .object({
    experiment_id: z.string(),
    status: z.enum(EXPERIMENT_STATUSES),
    variants: z.array(VariantResultData),
    srm: described(
      z.object({ chi_square: z.number(), p_value: z.number(), detected: z.boolean(), expected_shares: z.array(z.number()) }),
      'Sample ratio mismatch: chi-square of exposures against the expected shares; detected at p < 0.001 (broken assignment, no winner).',
    ),
    minimum_sample_per_variant: z.number().check(z.int()),
    minimum_sample_reached: z.boolean(),
    winner: described(z.nullable(z.string()), 'The winning variant key; null until decided.'),
    reason: z.enum(RESULT_REASONS),
    method: z.record(z.string(), z.union([z.string(), z.number()])),
  })
  .clone()
  .register(z.globalRegistry, { id: 'ExperimentResults' });

export const getExperimentResultsSchemas = {
  params: IdParams,
  responses: { 200: z.object({ data: ExperimentResultsData, meta: ResponseMeta }) },
} as const;

export const promoteExperimentSchemas = {
  params: IdParams,
  query: z.object({ force: z.optional(described(booleanQuery, '`true` promotes before a winner is decided (the best observed variant).')) }),
  body: z.object({ force: z.optional(described(z.boolean(), 'As the `force` query parameter; either may be given.')) }),
  responses: {
    200: z.object({
      data: z.object({
        experiment: ExperimentData,
        promoted_variant: ExperimentVariantData,
        forced: described(z.boolean(), 'true when promoted with force before the results named a winner.'),
        results: ExperimentResultsData,
        default_setting: described(z.record(z.string(), z.unknown()), "The merchant's default for the experiment's kind after the promotion."),
      }),
      meta: ResponseMeta,
    }),
  },
  errorStatuses: [409],
} as const;

export const stopExperimentSchemas = {
  params: IdParams,
  responses: { 200: z.object({ data: ExperimentData, meta: ResponseMeta }) },
  errorStatuses: [409],
} as const;

export const getExperimentAssignmentSchemas = {
  params: z.object({ customer_id: Id }),
  responses: {
    200: z.object({
      data: z.object({
        customer_id: z.string(),
        assignments: z.array(
          z.object({
            experiment_id: z.string(),
            kind: z.enum(EXPERIMENT_KINDS),
            status: z.enum(EXPERIMENT_STATUSES),
            variant: z.string(),
            is_control: z.boolean(),
            setting: z.record(z.string(), z.unknown()),
            frozen: described(z.boolean(), 'true when the experiment is stopped: everyone gets the control.'),
          }),
        ),
      }),
      meta: ResponseMeta,
    }),
  },
} as const;
