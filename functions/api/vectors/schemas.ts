import * as z from '#shared/zod';
import { CURRENCIES } from '#core/money';
import { PSPS } from '#core/providers';
import { isKnownDeclineCode } from '#core/vectors/recovery-features';
import { RECOVERY_STRATEGIES, VECTOR_OUTCOMES } from '#core/vectors/features';
import { isPossibleId } from '#core/ids';
import { described, ResponseMeta } from '#api/envelope-schemas';
import { MAX_AMOUNT } from '#api/ingest/schemas';

/** find-similar's top_k: 1-50 (spec), defaults 10 for A and 5 for B. */
export const FIND_SIMILAR_MAX_TOP_K = 50;
export const FIND_SIMILAR_DEFAULT_TOP_K = { a: 10, b: 5 } as const;

const Id = described(
  z.string().check(z.refine(isPossibleId, 'not an id: 1 to 320 bytes of printable characters')),
  "The recovery's id in the merchant's system (a payment `pe_…` or any id of up to 320 bytes); embedding it again replaces its vector.",
);
const DeclineCode = described(
  z
    .pipe(
      z.string().check(z.maxLength(100)),
      z.transform((value) => value.trim().toLowerCase()),
    )
    .check(z.refine(isKnownDeclineCode, 'not a decline code of the catalogue (GET /decline-codes)')),
  'A decline code of the catalogue (GET /decline-codes), any provider, case-insensitive.',
);
const Amount = described(z.number().check(z.int(), z.gte(0), z.lte(MAX_AMOUNT)), 'Smallest currency unit.');
const Currency = described(
  z.pipe(
    z.pipe(
      z.string().check(z.regex(/^[A-Za-z]{3}$/, 'not a 3-letter currency code')),
      z.transform((value) => value.toLowerCase()),
    ),
    z.enum(CURRENCIES),
  ),
  `ISO 4217, 3 letters, one of ${CURRENCIES.join(', ')} (upper case accepted).`,
);
const Segment = described(
  z.pipe(
    z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a segment name (1-64 letters, digits, _ or -)')),
    z.transform((value) => value.toLowerCase()),
  ),
  'The customer segment: first_failure, repeat_failure and high_value have a dimension each; any other name (1-64 of letters, digits, _ and -) shares hashed ones.',
);
const Psp = described(
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((value) => value.trim().toLowerCase()),
    ),
    z.enum(PSPS),
  ),
  'The payment provider, one of the 13 psp ids.',
);

/** amount_cents or its alias amount is required; when both are given they must agree. */
function checkAmount(body: { amount_cents?: number | undefined; amount?: number | undefined }, ctx: z.core.$RefinementCtx): void {
  if (body.amount_cents === undefined && body.amount === undefined)
    ctx.addIssue({ code: 'invalid_type', expected: 'number', path: ['amount_cents'], message: 'Required' });
  else if (body.amount_cents !== undefined && body.amount !== undefined && body.amount !== body.amount_cents) {
    ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount and amount_cents must agree' });
  }
}

export const EmbedEventBody = z
  .object({
    id: Id,
    decline_code: DeclineCode,
    amount_cents: z.optional(Amount),
    amount: z.optional(described(Amount, 'Alias of amount_cents; when both are given they must agree.')),
    currency: Currency,
    customer_segment: Segment,
    recovery_strategy: z.optional(
      described(z.enum(RECOVERY_STRATEGIES), `A (required with outcome): what was done, one of ${RECOVERY_STRATEGIES.join(', ')}.`),
    ),
    outcome: z.optional(described(z.enum(VECTOR_OUTCOMES), 'A: recovered, failed or pending.')),
    recovery_outcome: z.optional(described(z.enum(['recovered', 'terminal']), 'B: recovered or terminal (stored as A’s failed).')),
    customer_id: z.optional(
      described(
        z.string().check(z.refine(isPossibleId, 'not an id')),
        'The customer the recovery is about: erasing the customer (DELETE /customers/{id}) then removes this vector. Without it, the vector names no one and erasure cannot find it.',
      ),
    ),
    psp: z.optional(Psp),
    failed_at: z.optional(
      described(
        z.iso.datetime({ offset: true }),
        'When the payment failed: its UTC hour and weekday are features, and the suggestions compare neighbours that failed near a payday (UTC days 1-3, 15-17) with the others.',
      ),
    ),
  })
  .check(
    z.superRefine((body, ctx) => {
      const missing = (field: string, expected: 'string' | 'number'): void =>
        ctx.addIssue({ code: 'invalid_type', expected, path: [field], message: 'Required' });
      checkAmount(body, ctx);
      if (body.outcome === undefined && body.recovery_outcome === undefined) missing('outcome', 'string');
      if (
        body.outcome !== undefined &&
        body.recovery_outcome !== undefined &&
        (body.recovery_outcome === 'terminal' ? 'failed' : 'recovered') !== body.outcome
      ) {
        ctx.addIssue({ code: 'custom', path: ['recovery_outcome'], message: 'outcome and recovery_outcome must agree (terminal is failed)' });
      }
      if (body.outcome !== undefined && body.recovery_strategy === undefined) missing('recovery_strategy', 'string');
    }),
  )
  .clone()
  .register(z.globalRegistry, {
    description: "A's body (outcome and recovery_strategy) or B's (recovery_outcome); one write either way.",
  });

export const EmbedEventData = z.object({ embedded: z.boolean(), id: z.string(), merchant_id: z.string() });
export const EmbedEventResponse = z.object({ data: EmbedEventData, meta: ResponseMeta });

export const FindSimilarBody = z
  .object({
    decline_code: DeclineCode,
    amount_cents: z.optional(Amount),
    amount: z.optional(described(Amount, 'Alias of amount_cents; when both are given they must agree.')),
    currency: Currency,
    customer_segment: z.optional(described(Segment, 'Required in A; B may leave it out (and its default top_k is then 5).')),
    top_k: z.optional(
      described(
        z.number().check(z.int(), z.gte(1), z.lte(FIND_SIMILAR_MAX_TOP_K)),
        `1-${FIND_SIMILAR_MAX_TOP_K}; default ${FIND_SIMILAR_DEFAULT_TOP_K.a} with customer_segment (A), ${FIND_SIMILAR_DEFAULT_TOP_K.b} without (B).`,
      ),
    ),
    psp: z.optional(Psp),
    outcome: z.optional(described(z.enum(VECTOR_OUTCOMES), 'Only neighbours with this outcome.')),
  })
  .check(z.superRefine((body, ctx) => checkAmount(body, ctx)));

const Metadata = z.object({ outcome: z.enum(VECTOR_OUTCOMES), strategy: z.enum(RECOVERY_STRATEGIES), decline_code: z.string() });
export const Match = z.object({ id: z.string(), score: described(z.number(), 'Cosine similarity, -1 to 1 (1: the same features).'), metadata: Metadata });
export const FindSimilarData = z.object({ count: z.number(), matches: described(z.array(Match), 'Best first.') });
export const FindSimilarResponse = z.object({ data: FindSimilarData, meta: ResponseMeta });

export const RecommendStrategyParams = z.object({
  payment_id: described(z.string().check(z.minLength(1), z.maxLength(200)), 'The payment (`pe_…`), its recovery (`rec_…`) or the provider charge id.'),
});
const Tally = z.object({ recovered: z.number(), failed: z.number(), pending: z.number(), total: z.number() });
export const RecommendStrategyData = z.object({
  payment_id: z.string(),
  recommended_strategy: described(
    z.nullable(z.enum(RECOVERY_STRATEGIES)),
    'The strategy that recovered the most of the similar payments; null when none of them was recovered.',
  ),
  confidence: described(
    z.number(),
    "Wilson score lower bound (95%) of the recommended strategy's recovery rate among the similar payments it was used on; 0 when there is no recommendation.",
  ),
  similar_outcomes: described(Tally, 'Outcomes of the similar payments (total counts every one, pending included).'),
  strategies: described(
    z.array(z.object({ strategy: z.enum(RECOVERY_STRATEGIES), recovered: z.number(), failed: z.number(), recovery_rate: z.nullable(z.number()) })),
    'Per strategy used by the similar payments, most recovered first.',
  ),
});
export const RecommendStrategyResponse = z.object({ data: RecommendStrategyData, meta: ResponseMeta });

export const embedEventSchemas = { body: EmbedEventBody, responses: { 200: EmbedEventResponse } } as const;
export const findSimilarSchemas = { body: FindSimilarBody, responses: { 200: FindSimilarResponse } } as const;
export const recommendStrategySchemas = { params: RecommendStrategyParams, responses: { 200: RecommendStrategyResponse } } as const;
