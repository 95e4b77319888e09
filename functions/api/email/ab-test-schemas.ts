import * as z from '#shared/zod';
import { TEMPLATE_ID_PATTERN } from '#core/campaigns/validation';
import { AB_TEST_METRICS, AB_TEST_STATUSES, MINIMUM_SAMPLE_RANGE, TRAFFIC_SPLIT_RANGE } from '#core/experiments/ab-test';
import { DECISION_REASONS } from '#core/experiments/decision';
import { NOT_PROMOTED_REASONS } from '#core/experiments/promotion';
import { AB_ARMS } from '#core/experiments/assign';
import { DateTime, ResponseMeta } from '#api/envelope-schemas';

/** The schemas of the three email A/B test rows (spec "Templates and email"; the spec shows no response body: these are ours). */
const Int = z.number().check(z.int());
const Rate = z.nullable(z.number());
function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  z.globalRegistry.add(copy, { description });
  return copy;
}

const VariantInput = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  subject: z.string().check(z.trim(), z.minLength(1), z.maxLength(200), z.regex(/^[^\p{Cc}\u2028\u2029]*$/u, 'must be one line of text')),
  template_id: z.string().check(z.regex(TEMPLATE_ID_PATTERN, 'must be tmpl_ followed by 1-64 letters, digits or underscores')),
});

/** Exactly two variants (A first), names unique regardless of case. */
const VariantsInput = described(
  z.array(VariantInput).check(
    z.minLength(2, 'must hold exactly 2 variants'),
    z.maxLength(2, 'must hold exactly 2 variants'),
    z.superRefine((variants, ctx) => {
      const [a, b] = variants;
      if (a !== undefined && b !== undefined && a.name.toLowerCase() === b.name.toLowerCase()) {
        ctx.issues.push({ code: 'custom', input: b.name, path: [1, 'name'], message: 'must differ from the first variant’s name' });
      }
    }),
  ),
  'Exactly 2 variants: the first is A (the share traffic_split of payments), the second B.',
);

const Arm = z.enum(AB_ARMS);

export const AbTestVariant = z.object({
  arm: Arm,
  name: z.string(),
  subject: z.string(),
  template_id: z.string(),
  assigned: Int,
  sent: Int,
  clicked: Int,
  recovered: Int,
  recovery_rate: described(Rate, 'recovered / assigned; null before any assignment.'),
  click_rate: described(Rate, 'clicked / sent; null before any send.'),
});

const ArmStatistics = z.object({ n: Int, successes: Int, rate: Rate });

export const AbTestStatistics = z.object({
  metric: z.enum(AB_TEST_METRICS),
  arms: z.object({ A: ArmStatistics, B: ArmStatistics }),
  difference: described(Rate, 'rate B - rate A.'),
  relative_lift: described(Rate, '(rate B - rate A) / rate A.'),
  z_test: z.object({ z: z.nullable(z.number()), p_value: z.nullable(z.number()) }),
  confidence_interval: z.nullable(z.object({ level: z.number(), lower: z.number(), upper: z.number() })),
  probability_b_beats_a: z.number(),
  probability_a_beats_b: z.number(),
  srm: z.object({ chi_square: z.number(), p_value: z.number(), detected: z.boolean(), expected_split: z.number(), observed_split: Rate }),
  minimum_sample_per_arm: Int,
  sample_reached: z.boolean(),
  winner_arm: z.nullable(Arm),
  reason: z.enum(DECISION_REASONS),
});

export const AbTestMethod = z.object({
  metric: z.enum(AB_TEST_METRICS),
  rate: z.string(),
  assignment: z.string(),
  frequentist_test: z.string(),
  confidence_interval: z.string(),
  alpha: z.number(),
  bayesian_test: z.string(),
  prior: z.string(),
  probability_threshold: z.number(),
  srm_test: z.string(),
  srm_alpha: z.number(),
  minimum_sample_per_arm: Int,
  power_at_minimum_sample: z.object({ baseline_rate: z.number(), detectable_rate: z.nullable(z.number()), power: z.number() }),
  decision_rule: z.string(),
  applies_to: z.string(),
});

export const AbTestEvaluation = z.object({
  evaluated_at: DateTime,
  winner: described(z.nullable(z.string()), 'The winning variant by the decision rule; null with the reason otherwise.'),
  winner_arm: z.nullable(Arm),
  reason: z.enum(DECISION_REASONS),
  promoted: z.boolean(),
  promotion: z.nullable(z.object({ campaign_id: z.string(), step_index: Int, template_id: z.string(), subject: z.string() })),
  not_promoted_reason: described(z.nullable(z.enum(NOT_PROMOTED_REASONS)), 'Why a winner was not written into the campaign.'),
  statistics: AbTestStatistics,
});

/** The test with per-variant counts and rates, and its statistics computed on read. */
export const AbTest = z.object({
  id: z.string(),
  campaign_id: z.string(),
  status: z.enum(AB_TEST_STATUSES),
  traffic_split: z.number(),
  metric: z.enum(AB_TEST_METRICS),
  minimum_sample_per_arm: Int,
  applies_to: z.string(),
  variants: z.array(AbTestVariant),
  statistics: AbTestStatistics,
  method: AbTestMethod,
  last_evaluation: z.nullable(AbTestEvaluation),
  winner: z.nullable(z.string()),
  winner_arm: z.nullable(Arm),
  created_at: DateTime,
  evaluated_at: z.nullable(DateTime),
  completed_at: z.nullable(DateTime),
});

export const createEmailAbTestSchemas = {
  body: z.object({
    campaign_id: z.string().check(z.minLength(1), z.maxLength(255)),
    variants: VariantsInput,
    traffic_split: z.optional(
      described(
        z.number().check(z.gte(TRAFFIC_SPLIT_RANGE.min), z.lte(TRAFFIC_SPLIT_RANGE.max)),
        'Share of payments assigned to the first variant, 0.05-0.95; default 0.5.',
      ),
    ),
    metric: z.optional(described(z.enum(AB_TEST_METRICS), 'recovery (recovered / assigned, default) or click (clicked / sent).')),
    minimum_sample_per_arm: z.optional(
      described(
        z.number().check(z.int(), z.gte(MINIMUM_SAMPLE_RANGE.min), z.lte(MINIMUM_SAMPLE_RANGE.max)),
        'Units per arm before any winner (default 100: detects 40% → 60% at 80% power).',
      ),
    ),
  }),
  responses: { 201: z.object({ data: AbTest, meta: ResponseMeta }) },
} as const;

const CampaignParams = z.object({ campaign_id: z.string().check(z.minLength(1), z.maxLength(255)) });

export const getEmailAbTestSchemas = { params: CampaignParams, responses: { 200: z.object({ data: AbTest, meta: ResponseMeta }) } } as const;

export const evaluateEmailAbTestSchemas = {
  params: CampaignParams,
  responses: {
    200: z.object({
      data: z.object({ ...AbTestEvaluation.shape, method: AbTestMethod, test: AbTest }),
      meta: ResponseMeta,
    }),
  },
} as const;
