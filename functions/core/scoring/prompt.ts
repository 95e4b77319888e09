import * as z from '#shared/zod';
import type { RetryScore, RetryScoreInput } from './types';

/**
 * The enhanced tier's conversation with the AI port: the payment and the rules tier's answer go
 * in, one strict JSON object comes out. Each part of the prompt is one line that starts with a
 * fixed label, so a model (and the local deterministic one) can find the parts without guessing.
 */
export const RETRY_SCORING_TASK_LINE = 'Task: retry_scoring';
export const PAYMENT_LABEL = 'Payment: ';
export const RULES_BASELINE_LABEL = 'Rules baseline: ';

export const RETRY_SCORING_SYSTEM = [
  'You estimate whether retrying a declined card payment will succeed, for a subscription merchant.',
  'Answer with exactly one JSON object and nothing else:',
  '{"score": <probability 0-1 that the retry succeeds>, "delay_hours": <hours to wait before the retry, greater than 0>, "reasoning": "<one or two sentences naming the main factors>"}.',
  "Start from the rules baseline and move it only where the payment's signals justify it. Card-network rules are enforced after you answer.",
].join(' ');

/** The baseline as the model sees it (snake_case, as in the API). */
const baselineOf = (rules: RetryScore) => ({
  score: rules.score,
  delay_hours: rules.delayHours,
  confidence: rules.confidence,
  reasoning: rules.reasoning,
  factors: rules.factors,
});

const paymentOf = (input: RetryScoreInput) => ({
  decline_code: input.declineCode,
  decline_category: input.declineCategory,
  psp: input.psp,
  amount_cents: input.amountCents,
  currency: input.currency,
  attempt_number: input.attemptNumber,
  hour_of_day: input.hourOfDay,
  day_of_week: input.dayOfWeek,
  card_brand: input.cardBrand,
  is_debit: input.isDebit,
  customer_lifetime_value_cents: input.customerLifetimeValueCents,
  previous_successful_payments: input.previousSuccessfulPayments,
  subscription_months: input.subscriptionMonths,
  days_since_failure: input.daysSinceFailure,
  payday_proximity_days: input.paydayProximityDays,
  success_rate_90d: input.successRate90d,
  anomaly_score: input.anomalyScore,
});

/** The user turn for one scoring request (fields the caller did not give are left out). */
export function retryScoringPrompt(input: RetryScoreInput, rules: RetryScore): string {
  return [
    RETRY_SCORING_TASK_LINE,
    `${PAYMENT_LABEL}${JSON.stringify(paymentOf(input))}`,
    `${RULES_BASELINE_LABEL}${JSON.stringify(baselineOf(rules))}`,
    'Answer with the JSON object only.',
  ].join('\n');
}

/**
 * The answer the enhanced tier accepts: any finite numbers (clamped by the scorer afterwards),
 * a non-empty reasoning, and an optional confidence.
 */
export const AiRetryAnswer = z.object({
  score: z.number().check(z.refine(Number.isFinite)),
  delay_hours: z.number().check(z.refine(Number.isFinite)),
  reasoning: z.string().check(z.trim(), z.minLength(1)),
  confidence: z.optional(z.number().check(z.refine(Number.isFinite))),
});
export type AiRetryAnswer = z.infer<typeof AiRetryAnswer>;

const FENCED = /^```(?:json)?\s*([\s\S]*?)\s*```$/;

/** The model's answer, or undefined when it is not the one JSON object asked for (a ```json fence around it is tolerated). */
export function parseAiRetryAnswer(text: string): AiRetryAnswer | undefined {
  const trimmed = text.trim();
  const json = FENCED.exec(trimmed)?.[1] ?? trimmed;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  const parsed = AiRetryAnswer.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
