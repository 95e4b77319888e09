import * as z from '#shared/zod';
import { CACHE_KINDS } from '#core/custom-hostnames';
import { CURRENCIES } from '#core/money';
import { AMOUNT_BUCKETS, ATTEMPT_BUCKETS } from '#core/scoring/lookup-key';
import { MAX_DELAY_HOURS, MIN_DELAY_HOURS } from '#core/scoring/types';

/** Entries one request may carry (20 BatchWriteItem calls; a larger table is sent in several requests). */
export const MAX_LOOKUP_ENTRIES = 500;

const Factor = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(60)),
  impact: z.enum(['positive', 'negative']),
  weight: z.number().check(z.gte(0), z.lte(100)),
});

/** One pre-computed score: the parts of its lookup key (core/scoring/lookup-key.ts), then the score. */
export const ScoreLookupEntry = z.object({
  decline_code: z
    .string()
    .check(z.trim(), z.minLength(1), z.maxLength(100))
    .clone()
    .register(z.globalRegistry, { description: 'The decline code; normalised into the key (lower case, runs of other characters as `_`).' }),
  attempt_bucket: z.enum(ATTEMPT_BUCKETS).clone().register(z.globalRegistry, { description: 'attempt_number 1, 2, 3, or 4 and more.' }),
  amount_bucket: z.enum(AMOUNT_BUCKETS).clone().register(z.globalRegistry, { description: 'Amount band in approximate US dollars (lower bounds inclusive).' }),
  currency: z.pipe(
    z.pipe(
      z.string(),
      z.transform((value) => value.toLowerCase()),
    ),
    z.enum(CURRENCIES),
  ),
  score: z.number().check(z.gte(0), z.lte(1)).clone().register(z.globalRegistry, { description: 'Probability that the retry succeeds.' }),
  delay_hours: z.number().check(z.gte(MIN_DELAY_HOURS), z.lte(MAX_DELAY_HOURS)),
  confidence: z.number().check(z.gte(0), z.lte(1)),
  model_version: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  reasoning: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(500))),
  factors: z.optional(z.array(Factor).check(z.maxLength(20))),
});

/**
 * The body of POST /api/internal/scoring/update-lookup. Not in the route row: the operation checks
 * the cron secret before it reads the body (as the delivery callbacks check their signatures), then
 * validates it with this schema.
 */
export const UpdateScoreLookupBody = z.object({
  entries: z.array(ScoreLookupEntry).check(z.minLength(1), z.maxLength(MAX_LOOKUP_ENTRIES)),
});

export const UpdateScoreLookupResponse = z.object({
  data: z.object({
    received: z.number().check(z.int()).clone().register(z.globalRegistry, { description: 'Entries in the request.' }),
    written: z
      .number()
      .check(z.int())
      .clone()
      .register(z.globalRegistry, { description: 'Distinct lookup keys written (a key given twice keeps its last entry).' }),
    keys: z.array(z.string()).clone().register(z.globalRegistry, { description: 'The lookup keys written, in the order first given.' }),
  }),
  meta: z.object({ timestamp: z.string(), request_id: z.string() }),
});

export const updateScoreLookupSchemas = {
  // Parsed by the pipeline after the cron_secret authenticator: a refused caller's body is never read.
  body: UpdateScoreLookupBody,
  responses: { 200: UpdateScoreLookupResponse },
} as const;

/** The body of POST /api/internal/cache/invalidate (parsed after the cron secret is checked). */
export const InvalidateCacheBody = z.object({
  kind: z.enum(CACHE_KINDS).clone().register(z.globalRegistry, {
    description: '`branding`: a merchant’s branding (key: the merchant id); `hostname`: a custom hostname’s cache (key: the hostname).',
  }),
  key: z
    .string()
    .check(z.trim(), z.minLength(1), z.maxLength(320))
    .clone()
    .register(z.globalRegistry, { description: 'The merchant id or the hostname, as `kind` says.' }),
});

export const invalidateCacheSchemas = {
  body: InvalidateCacheBody,
  responses: {
    200: z.object({
      data: z.object({
        kind: z.enum(CACHE_KINDS),
        key: z.string(),
        function_cache_cleared: z.boolean().clone().register(z.globalRegistry, {
          description: 'Whether the function answering held the entry in its own cache (other functions’ copies expire within 5 minutes).',
        }),
        cdn_invalidation_id: z
          .nullable(z.string())
          .clone()
          .register(z.globalRegistry, { description: 'The CDN invalidation made; null when the CDN serves nothing for the key yet.' }),
      }),
      meta: z.object({ timestamp: z.string(), request_id: z.string() }),
    }),
  },
} as const;
