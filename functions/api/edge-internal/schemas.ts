import { z } from 'zod';
import { CURRENCIES } from '../../core/money';
import { AMOUNT_BUCKETS, ATTEMPT_BUCKETS } from '../../core/scoring/lookup-key';
import { MAX_DELAY_HOURS, MIN_DELAY_HOURS } from '../../core/scoring/types';

/** Entries one request may carry (20 BatchWriteItem calls; a larger table is sent in several requests). */
export const MAX_LOOKUP_ENTRIES = 500;

const Factor = z.object({
  name: z.string().trim().min(1).max(60),
  impact: z.enum(['positive', 'negative']),
  weight: z.number().min(0).max(100),
});

/** One pre-computed score: the parts of its lookup key (core/scoring/lookup-key.ts), then the score. */
export const ScoreLookupEntry = z.object({
  decline_code: z.string().trim().min(1).max(100).describe('The decline code; normalised into the key (lower case, runs of other characters as `_`).'),
  attempt_bucket: z.enum(ATTEMPT_BUCKETS).describe('attempt_number 1, 2, 3, or 4 and more.'),
  amount_bucket: z.enum(AMOUNT_BUCKETS).describe('Amount band in approximate US dollars (lower bounds inclusive).'),
  currency: z
    .string()
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(CURRENCIES)),
  score: z.number().min(0).max(1).describe('Probability that the retry succeeds.'),
  delay_hours: z.number().min(MIN_DELAY_HOURS).max(MAX_DELAY_HOURS),
  confidence: z.number().min(0).max(1),
  model_version: z.string().trim().min(1).max(100),
  reasoning: z.string().trim().min(1).max(500).optional(),
  factors: z.array(Factor).max(20).optional(),
});

/**
 * The body of POST /api/internal/scoring/update-lookup. Not in the route row: the operation checks
 * the cron secret before it reads the body (as the delivery callbacks check their signatures), then
 * validates it with this schema.
 */
export const UpdateScoreLookupBody = z.object({
  entries: z.array(ScoreLookupEntry).min(1).max(MAX_LOOKUP_ENTRIES),
});

export const UpdateScoreLookupResponse = z.object({
  data: z.object({
    received: z.number().int().describe('Entries in the request.'),
    written: z.number().int().describe('Distinct lookup keys written (a key given twice keeps its last entry).'),
    keys: z.array(z.string()).describe('The lookup keys written, in the order first given.'),
  }),
  meta: z.object({ timestamp: z.string(), request_id: z.string() }),
});

export const updateScoreLookupSchemas = {
  // Parsed by the pipeline after the cron_secret authenticator: a refused caller's body is never read.
  body: UpdateScoreLookupBody,
  responses: { 200: UpdateScoreLookupResponse },
} as const;
