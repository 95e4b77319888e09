import * as z from '#shared/zod';
import { DECLINE_CATEGORIES } from '#core/decline-codes/types';
import { CURRENCIES } from '#core/money';
import { PSPS } from '#core/providers';
import { SCORING_MODELS } from '#core/scoring/types';
import { MAX_AMOUNT } from '#api/ingest/schemas';

const Amount = z.number().check(z.int(), z.gte(0), z.lte(MAX_AMOUNT));
const Count = (max: number) => z.number().check(z.int(), z.gte(0), z.lte(max));

/** A's `SoftRetry` forms and the lowercase `soft_retry` forms (DESIGN §1), normalised to the lowercase one. */
const DECLINE_CATEGORY_FORMS = [...DECLINE_CATEGORIES, 'SoftRetry', 'HardCustomer', 'Terminal', 'Unknown'] as const;
const DeclineCategoryInput = z.pipe(
  z.pipe(
    z
      .string()
      .clone()
      .register(z.globalRegistry, { enum: [...DECLINE_CATEGORY_FORMS] }),
    z.transform((value) =>
      value
        .trim()
        .replace(/([a-z])([A-Z])/g, '$1_$2')
        .toLowerCase(),
    ),
  ),
  z.enum(DECLINE_CATEGORIES),
);

const Currency = z.pipe(
  z.pipe(
    z
      .string()
      .clone()
      .register(z.globalRegistry, { enum: [...CURRENCIES], default: 'usd' })
      .clone()
      .register(z.globalRegistry, { description: `One of ${CURRENCIES.join(', ')}; upper case is accepted.` }),
    z.transform((value) => value.toLowerCase()),
  ),
  z.enum(CURRENCIES),
);

/**
 * Both forms of the spec in one body. B is told apart by `payment_id` or `retry_count`: with
 * either, payment_id, decline_code, amount_cents, currency and retry_count are all required (400
 * when one is missing), and the attempt scored is retry_count + 1. A's defaults (attempt_number 1,
 * hour_of_day 12, currency usd, model enhanced) are applied by the operation, so that a B body
 * without a currency is refused rather than defaulted.
 */
export const ScoreRetryBody = z
  .object({
    decline_code: z
      .string()
      .check(z.trim(), z.minLength(1), z.maxLength(100))
      .clone()
      .register(z.globalRegistry, { description: "The provider's decline code." }),
    amount_cents: z.optional(Amount).clone().register(z.globalRegistry, { description: 'Smallest currency unit; required (alias `amount`).' }),
    amount: z.optional(Amount).clone().register(z.globalRegistry, { description: 'Alias of amount_cents; when both are given they must agree.' }),
    currency: z.optional(Currency).clone().register(z.globalRegistry, { description: 'Lowercase ISO 4217; default usd (A), required (B).' }),
    decline_category: z.optional(DeclineCategoryInput).clone().register(z.globalRegistry, {
      description: "Overrides the catalogue's category, except where the card networks forbid the retry. SoftRetry and soft_retry forms are both accepted.",
    }),
    psp: z
      .optional(
        z.pipe(
          z.pipe(
            z.string(),
            z.transform((value) => value.trim().toLowerCase()),
          ),
          z.enum(PSPS),
        ),
      )
      .clone()
      .register(z.globalRegistry, { description: "The provider of the decline code, for an exact catalogue match (B: the payment's provider when omitted)." }),
    attempt_number: z
      .optional(z.number().check(z.int(), z.gte(1), z.lte(100)))
      .clone()
      .register(z.globalRegistry, { default: 1 })
      .clone()
      .register(z.globalRegistry, { description: "1-based; default 1 (A). With B's retry_count it must equal retry_count + 1." }),
    hour_of_day: z
      .optional(z.number().check(z.int(), z.gte(0), z.lte(23)))
      .clone()
      .register(z.globalRegistry, { default: 12 })
      .clone()
      .register(z.globalRegistry, { description: 'Hour of the attempt, 0-23, customer local time when known; default 12.' }),
    day_of_week: z
      .optional(z.number().check(z.int(), z.gte(0), z.lte(6)))
      .clone()
      .register(z.globalRegistry, { description: '0 = Sunday to 6 = Saturday.' }),
    card_brand: z
      .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(30)))
      .clone()
      .register(z.globalRegistry, { description: 'visa, mastercard, ...' }),
    card_last4: z.optional(z.string().check(z.regex(/^\d{4}$/))),
    is_debit: z.optional(z.boolean()),
    customer_lifetime_value_cents: z.optional(Amount),
    previous_successful_payments: z.optional(Count(1_000_000)),
    subscription_months: z.optional(Count(1200)),
    days_since_failure: z.optional(Count(3650)),
    payday_proximity_days: z
      .optional(Count(31))
      .clone()
      .register(z.globalRegistry, { description: "Days until the customer's next expected payday (0 = today)." }),
    success_rate_90d: z.optional(z.number().check(z.gte(0), z.lte(1))),
    anomaly_score: z.optional(z.number().check(z.gte(0), z.lte(1))),
    model: z
      .optional(z.enum(SCORING_MODELS))
      .clone()
      .register(z.globalRegistry, { default: 'enhanced' })
      .clone()
      .register(z.globalRegistry, { description: 'rules, enhanced (default) or lgbm.' }),
    payment_id: z
      .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200)))
      .clone()
      .register(z.globalRegistry, { description: "B: the merchant's payment (`pe_…`, `rec_…` or the provider charge id)." }),
    retry_count: z.optional(Count(99)).clone().register(z.globalRegistry, { description: 'B: retries made so far; the attempt scored is retry_count + 1.' }),
  })
  .check(
    z.superRefine((body, ctx) => {
      const missing = (field: string, expected: 'string' | 'number'): void =>
        ctx.addIssue({ code: 'invalid_type', expected, path: [field], message: 'Required' });
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
    }),
  )
  .clone()
  .register(z.globalRegistry, { anyOf: [{ required: ['amount_cents'] }, { required: ['amount'] }] });

const Factor = z
  .object({ name: z.string(), impact: z.enum(['positive', 'negative']), weight: z.number() })
  .clone()
  .register(z.globalRegistry, { id: 'ScoreFactor' });

const scoreFields = {
  score: z.number().clone().register(z.globalRegistry, { description: 'Probability that the retry succeeds, 0-1.' }),
  delay_hours: z.number().clone().register(z.globalRegistry, { description: 'Recommended wait before the attempt, in hours.' }),
  recommended_delay_hours: z.number().clone().register(z.globalRegistry, { description: 'B: the same value as delay_hours.' }),
  confidence: z.number(),
  reasoning: z.string(),
  model_version: z.string(),
  source: z.enum(SCORING_MODELS).clone().register(z.globalRegistry, { description: 'The tier that answered.' }),
  fallback_from: z
    .nullable(z.enum(['enhanced', 'lgbm']))
    .clone()
    .register(z.globalRegistry, { description: 'The tier asked for, when a lower one answered.' }),
  fallback_reason: z
    .nullable(z.string())
    .clone()
    .register(z.globalRegistry, { description: 'ai_error, ai_timeout, ai_invalid_response, lookup_miss, lookup_error or do_not_retry.' }),
  factors: z.array(Factor).clone().register(z.globalRegistry, { description: 'Every signal that moved the score, largest first.' }),
};

/** A: unwrapped (spec: "A AI scoring responses are not wrapped in data"). */
export const ScoreRetryResponseA = z.object(scoreFields).clone().register(z.globalRegistry, { id: 'RetryScore' });

/** B: wrapped in the envelope. */
export const ScoreRetryResponseB = z.object({
  data: z.object({ payment_id: z.string(), ...scoreFields }),
  meta: z.object({ timestamp: z.string(), request_id: z.string(), merchant_id: z.optional(z.string()) }),
});

/** 404: B's payment_id names no payment of the merchant. */
export const scoreRetrySchemas = {
  body: ScoreRetryBody,
  errorStatuses: [404],
  responses: { 200: z.union([ScoreRetryResponseA, ScoreRetryResponseB]) },
} as const;
