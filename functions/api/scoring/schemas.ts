import { z } from 'zod';
import { DECLINE_CATEGORIES } from '../../core/decline-codes/types';
import { CURRENCIES } from '../../core/money';
import { PSPS } from '../../core/providers';
import { SCORING_MODELS } from '../../core/scoring/types';
import { MAX_AMOUNT } from '../ingest/schemas';

const Amount = z.number().int().min(0).max(MAX_AMOUNT);
const Count = (max: number) => z.number().int().min(0).max(max);

/** A's `SoftRetry` forms and the lowercase `soft_retry` forms (DESIGN §1), normalised to the lowercase one. */
const DECLINE_CATEGORY_FORMS = [...DECLINE_CATEGORIES, 'SoftRetry', 'HardCustomer', 'Terminal', 'Unknown'] as const;
const DeclineCategoryInput = z
  .string()
  .meta({ enum: [...DECLINE_CATEGORY_FORMS] })
  .transform((value) => value.trim().replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase())
  .pipe(z.enum(DECLINE_CATEGORIES));

const Currency = z
  .string()
  .meta({ enum: [...CURRENCIES], default: 'usd' })
  .describe(`One of ${CURRENCIES.join(', ')}; upper case is accepted.`)
  .transform((value) => value.toLowerCase())
  .pipe(z.enum(CURRENCIES));

/**
 * Both forms of the spec in one body. B is told apart by `payment_id` or `retry_count`: with
 * either, payment_id, decline_code, amount_cents, currency and retry_count are all required (400
 * when one is missing), and the attempt scored is retry_count + 1. A's defaults (attempt_number 1,
 * hour_of_day 12, currency usd, model enhanced) are applied by the operation, so that a B body
 * without a currency is refused rather than defaulted.
 */
export const ScoreRetryBody = z
  .object({
    decline_code: z.string().trim().min(1).max(100).describe("The provider's decline code."),
    amount_cents: Amount.optional().describe('Smallest currency unit; required (alias `amount`).'),
    amount: Amount.optional().describe('Alias of amount_cents; when both are given they must agree.'),
    currency: Currency.optional().describe('Lowercase ISO 4217; default usd (A), required (B).'),
    decline_category: DeclineCategoryInput.optional().describe('Overrides the catalogue\'s category, except where the card networks forbid the retry. SoftRetry and soft_retry forms are both accepted.'),
    psp: z
      .string()
      .transform((value) => value.trim().toLowerCase())
      .pipe(z.enum(PSPS))
      .optional()
      .describe('The provider of the decline code, for an exact catalogue match (B: the payment\'s provider when omitted).'),
    attempt_number: z.number().int().min(1).max(100).optional().meta({ default: 1 }).describe('1-based; default 1 (A). With B\'s retry_count it must equal retry_count + 1.'),
    hour_of_day: z.number().int().min(0).max(23).optional().meta({ default: 12 }).describe('Hour of the attempt, 0-23, customer local time when known; default 12.'),
    day_of_week: z.number().int().min(0).max(6).optional().describe('0 = Sunday to 6 = Saturday.'),
    card_brand: z.string().trim().min(1).max(30).optional().describe('visa, mastercard, ...'),
    card_last4: z.string().regex(/^\d{4}$/).optional(),
    is_debit: z.boolean().optional(),
    customer_lifetime_value_cents: Amount.optional(),
    previous_successful_payments: Count(1_000_000).optional(),
    subscription_months: Count(1200).optional(),
    days_since_failure: Count(3650).optional(),
    payday_proximity_days: Count(31).optional().describe('Days until the customer\'s next expected payday (0 = today).'),
    success_rate_90d: z.number().min(0).max(1).optional(),
    anomaly_score: z.number().min(0).max(1).optional(),
    model: z.enum(SCORING_MODELS).optional().meta({ default: 'enhanced' }).describe('rules, enhanced (default) or lgbm.'),
    payment_id: z.string().trim().min(1).max(200).optional().describe('B: the merchant\'s payment (`pe_…`, `rec_…` or the provider charge id).'),
    retry_count: Count(99).optional().describe('B: retries made so far; the attempt scored is retry_count + 1.'),
  })
  .superRefine((body, ctx) => {
    const missing = (field: string, expected: 'string' | 'number'): void => ctx.addIssue({ code: 'invalid_type', expected, path: [field], message: 'Required' });
    if (body.amount_cents === undefined && body.amount === undefined) missing('amount_cents', 'number');
    else if (body.amount_cents !== undefined && body.amount !== undefined && body.amount !== body.amount_cents) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount and amount_cents must agree' });
    }
    if (body.payment_id !== undefined || body.retry_count !== undefined) {
      if (body.payment_id === undefined) missing('payment_id', 'string');
      if (body.currency === undefined) missing('currency', 'string');
      if (body.retry_count === undefined) missing('retry_count', 'number');
      if (body.retry_count !== undefined && body.attempt_number !== undefined && body.attempt_number !== body.retry_count + 1) {
        ctx.addIssue({ code: 'custom', path: ['attempt_number'], message: 'attempt_number must equal retry_count + 1' });
      }
    }
  })
  .meta({ anyOf: [{ required: ['amount_cents'] }, { required: ['amount'] }] });

const Factor = z.object({ name: z.string(), impact: z.enum(['positive', 'negative']), weight: z.number() }).meta({ id: 'ScoreFactor' });

const scoreFields = {
  score: z.number().meta({ description: 'Probability that the retry succeeds, 0-1.' }),
  delay_hours: z.number().meta({ description: 'Recommended wait before the attempt, in hours.' }),
  recommended_delay_hours: z.number().meta({ description: 'B: the same value as delay_hours.' }),
  confidence: z.number(),
  reasoning: z.string(),
  model_version: z.string(),
  source: z.enum(SCORING_MODELS).meta({ description: 'The tier that answered.' }),
  fallback_from: z.enum(['enhanced', 'lgbm']).nullable().meta({ description: 'The tier asked for, when a lower one answered.' }),
  fallback_reason: z.string().nullable().meta({ description: 'ai_error, ai_timeout, ai_invalid_response, lookup_miss, lookup_error or do_not_retry.' }),
  factors: z.array(Factor).meta({ description: 'Every signal that moved the score, largest first.' }),
};

/** A: unwrapped (spec: "A AI scoring responses are not wrapped in data"). */
export const ScoreRetryResponseA = z.object(scoreFields).meta({ id: 'RetryScore' });

/** B: wrapped in the envelope. */
export const ScoreRetryResponseB = z.object({
  data: z.object({ payment_id: z.string(), ...scoreFields }),
  meta: z.object({ timestamp: z.string(), request_id: z.string(), merchant_id: z.string().optional() }),
});

/** 404: B's payment_id names no payment of the merchant. */
export const scoreRetrySchemas = { body: ScoreRetryBody, errorStatuses: [404], responses: { 200: z.union([ScoreRetryResponseA, ScoreRetryResponseB]) } } as const;
