import * as z from '#shared/zod';
import { EXPERIMENT_KINDS, EXPERIMENT_MINIMUM_SAMPLE } from '#core/experiments/experiment';
import { SUGGESTION_SOURCES, SUGGESTION_TYPES } from '#core/experiments/suggestions';
import { DateTime, described, ResponseMeta } from '#api/envelope-schemas';
import { ExperimentData } from '#api/experiments/schemas';

const Setting = z.record(z.string(), z.unknown());

export const SuggestionData = z
  .object({
    id: described(z.string(), '`sug_…`: stable for the same finding, so an applied or dismissed suggestion is not proposed again.'),
    object: z.literal('suggestion'),
    type: z.enum(SUGGESTION_TYPES),
    title: z.string(),
    description: z.string(),
    kind: described(z.enum(EXPERIMENT_KINDS), 'The strategy it changes, and the kind of experiment apply starts.'),
    target: described(z.string(), 'What it concerns: a decline code, `insufficient_funds`, or a decline category (segment).'),
    source: described(
      z.enum(SUGGESTION_SOURCES),
      "Who proposes it: `analytics` (the merchant's last window_days of payments), `neighbours` (its vector neighbours, where the analytics are too few for the rule) or `both` (each meets the rule on its own).",
    ),
    evidence: described(
      z.record(z.string(), z.union([z.number(), z.string()])),
      "The counts it rests on: the merchant's own analytics over window_days; for `source: neighbours` also its ended vector neighbours (`neighbours_…`), which decide it.",
    ),
    expected_lift: z.object({
      recovery_rate_points: described(z.number(), 'Recovery-rate points (0-1) over the payments concerned.'),
      recovered_payments: z.number().check(z.int()),
      retries_avoided: z.number().check(z.int()),
      basis: z.string(),
    }),
    experiment_variants: described(z.array(Setting), 'The variants apply starts: the control first.'),
    direct_setting: described(Setting, 'The setting `mode: direct` makes the default.'),
    neighbour_evidence: described(
      z.nullable(
        z.object({
          similar: described(z.number().check(z.int()), 'Similar past payments of the merchant that share the code (or category) the suggestion concerns.'),
          recovered: described(z.number().check(z.int()), 'Of those, recovered.'),
          failed: described(z.number().check(z.int()), 'Of those, ended unrecovered.'),
          by_strategy: described(
            z.record(z.string(), z.object({ similar: z.number().check(z.int()), recovered: z.number().check(z.int()) })),
            'The same counts by the strategy that was tried (retry, card_update, campaign_email, campaign_sms, provider, none).',
          ),
        }),
      ),
      "How the merchant's similar past payments ended (vector neighbours of a typical payment of the suggestion's code or category); null when the merchant has none.",
    ),
  })
  .clone()
  .register(z.globalRegistry, { id: 'RecoverySuggestion' });

const IdParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(255)) });

const Decision = z.object({
  suggestion_id: z.string(),
  status: z.enum(['applied', 'dismissed']),
  mode: z.nullable(z.enum(['experiment', 'direct'])),
  experiment_id: z.nullable(z.string()),
  source: described(
    z.nullable(z.enum(SUGGESTION_SOURCES)),
    'Who proposed the suggestion when it was decided; the decision stands whatever the analytics or neighbours say later.',
  ),
  decided_at: DateTime,
});

export const listRecoverySuggestionsSchemas = { responses: { 200: z.object({ data: z.array(SuggestionData), meta: ResponseMeta }) } } as const;

export const applySuggestionSchemas = {
  params: IdParams,
  body: z.object({
    mode: z._default(
      described(z.enum(['experiment', 'direct']), '`experiment` (default) starts an experiment; `direct` changes the default setting now.'),
      'experiment',
    ),
    min_sample: z.optional(
      described(
        z.number().check(z.int(), z.gte(EXPERIMENT_MINIMUM_SAMPLE.min), z.lte(EXPERIMENT_MINIMUM_SAMPLE.max)),
        `Exposures per variant before a winner (experiment mode); default ${EXPERIMENT_MINIMUM_SAMPLE.default}.`,
      ),
    ),
  }),
  responses: {
    200: z.object({
      data: z.object({
        suggestion: SuggestionData,
        decision: Decision,
        experiment: z.nullable(ExperimentData),
        default_setting: described(z.nullable(Setting), "The merchant's default for the kind after a direct apply; null for an experiment."),
      }),
      meta: ResponseMeta,
    }),
  },
  errorStatuses: [409],
} as const;

export const dismissSuggestionSchemas = {
  params: IdParams,
  responses: { 200: z.object({ data: z.object({ suggestion: SuggestionData, decision: Decision }), meta: ResponseMeta }) },
  errorStatuses: [409],
} as const;
