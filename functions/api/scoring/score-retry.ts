import type { z } from 'zod/mini';
import type { PaymentRecord } from '#core/payments';
import { createRetryScorer } from '#core/scoring/scorer';
import type { RetryScore, RetryScoreInput } from '#core/scoring/types';
import { aiModel } from '#adapters/ai/index';
import { scoreLookupRepository } from '#data/score-lookup-repository';
import { envelope } from '#api/pipeline/responses';
import { logger } from '#shared/logger';
import { defineOperation } from '#api/operation';
import { findPayment } from '#api/payments/find-payment';
import { type ScoreRetryBody, scoreRetrySchemas } from './schemas';

type Body = z.output<typeof ScoreRetryBody>;

/** A's defaults (spec, POST /scoring/retry). */
const DEFAULTS = { attemptNumber: 1, hourOfDay: 12, currency: 'usd', model: 'enhanced' } as const;

const scorer = createRetryScorer({ ai: aiModel, lookup: scoreLookupRepository });

const sameCode = (a: string | null, b: string): boolean => a !== null && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The scorer's input. With B's payment, a decline code equal to the payment's keeps the payment's
 * stored classification (made at ingest with every signal the provider sent) unless the body names
 * a category, and the payment's provider unless the body names one.
 */
function scoreInputOf(body: Body, payment: PaymentRecord | undefined): RetryScoreInput {
  const stored = payment !== undefined && sameCode(payment.decline_code, body.decline_code) ? payment : undefined;
  const category = body.decline_category ?? stored?.decline_category;
  const psp = body.psp ?? payment?.psp;
  return {
    declineCode: body.decline_code,
    amountCents: (body.amount_cents ?? body.amount) as number,
    currency: body.currency ?? DEFAULTS.currency,
    ...(category === undefined ? {} : { declineCategory: category }),
    ...(stored !== undefined && category === stored.decline_category ? { declineSubcategory: stored.decline_subcategory } : {}),
    ...(psp === undefined ? {} : { psp }),
    attemptNumber: body.retry_count === undefined ? (body.attempt_number ?? DEFAULTS.attemptNumber) : body.retry_count + 1,
    hourOfDay: body.hour_of_day ?? DEFAULTS.hourOfDay,
    dayOfWeek: body.day_of_week,
    cardBrand: body.card_brand,
    isDebit: body.is_debit,
    customerLifetimeValueCents: body.customer_lifetime_value_cents,
    previousSuccessfulPayments: body.previous_successful_payments,
    subscriptionMonths: body.subscription_months,
    daysSinceFailure: body.days_since_failure,
    paydayProximityDays: body.payday_proximity_days,
    successRate90d: body.success_rate_90d,
    anomalyScore: body.anomaly_score,
  };
}

/** One record of A's and B's field names (DESIGN §1: delay_hours and recommended_delay_hours both). */
const scoreView = (result: RetryScore) => ({
  score: result.score,
  delay_hours: result.delayHours,
  recommended_delay_hours: result.delayHours,
  confidence: result.confidence,
  reasoning: result.reasoning,
  model_version: result.modelVersion,
  source: result.source,
  fallback_from: result.fallbackFrom ?? null,
  fallback_reason: result.fallbackReason ?? null,
  factors: result.factors,
});

/**
 * POST /api/v1/scoring/retry: scores the next attempt of a failed payment with the tier asked for
 * (rules, enhanced by default, lgbm; core/scoring/scorer.ts says how each falls back). A body is
 * answered unwrapped; B's (payment_id + retry_count) must name one of the merchant's payments (404
 * otherwise, another merchant's included) and is answered in the envelope.
 */
export const scoreRetry = defineOperation({ auth: 'api_key', schemas: scoreRetrySchemas }, async ({ body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const payment = body.payment_id === undefined ? undefined : await findPayment(merchantId, body.payment_id);
  const model = body.model ?? DEFAULTS.model;
  const result = await scorer.score(scoreInputOf(body, payment), model);
  if (result.fallbackFrom !== undefined) {
    const level = result.fallbackReason === 'lookup_miss' || result.fallbackReason === 'do_not_retry' ? 'info' : 'warn';
    logger[level]('retry scoring fell back', { request_id: requestId, merchant_id: merchantId, model, source: result.source, reason: result.fallbackReason });
  }
  if (payment === undefined) return { body: scoreView(result) };
  return { body: envelope({ payment_id: payment.id, ...scoreView(result) }, requestId, merchantId) };
});
