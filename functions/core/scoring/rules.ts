import { classifyDecline } from '#core/decline-codes/classify';
import { baselineRecoveryRate } from '#core/decline-codes/recovery-rates';
import {
  type ClassificationSource,
  type DeclineCategory,
  type DeclineCodeRecord,
  type DeclineSubcategory,
  isSubcategoryOf,
  type SubcategoryOf,
} from '#core/decline-codes/types';
import { approximateUsd } from './amounts';
import type { RetryScore, RetryScoreInput, ScoreFactor } from './types';

/**
 * The rules tier of retry scoring: synchronous, deterministic, no I/O. POST /scoring/retry
 * answers with it for `model: rules` (and whenever a higher tier fails), and the retry policy
 * (core/retry-policy.ts) takes its delay and score for automatic retries.
 *
 * 1. **Classification.** The decline is classified by `classifyDecline` (DESIGN §2b precedence:
 *    advice code, Visa network code, provider code with `psp`, else unknown); a two-character code
 *    the catalogue does not know (`51`, `R1`) is read as the raw network code. A caller's
 *    `declineCategory` overrides the classifier (a stored payment's classification, or A's
 *    `decline_category`), except where the classifier forbids the retry on a network signal
 *    (advice or network code) or reads the code as terminal: no caller may score a retry the card
 *    networks forbid, nor one whose code says never to retry. An overridden category keeps the
 *    caller's `declineSubcategory` when it belongs to it, else takes the category's most cautious
 *    subcategory (DEFAULT_SUBCATEGORY).
 * 2. **Do-not-retry.** hard_customer and terminal declines (and any decline the networks forbid)
 *    score 0: hard_customer ones are "not retried until the card is updated", terminal ones are
 *    "never retried". Their delay is a nominal 24 h, only so it is always positive.
 * 3. **Score** (soft_retry and unknown): a logistic model written out by hand. The log-odds start
 *    at the code's expected recovery rate (the catalogue's `recovery_rate` for a matched code,
 *    else its subcategory's baseline, decline-codes/recovery-rates.ts), and each signal adds a
 *    fixed, documented amount (SIGNALS below); score = 1 / (1 + e^-logit). Working on the
 *    log-odds keeps the score inside 0-1 without clamping, makes every signal's effect
 *    proportionate (a push matters less near certainty), and makes the decay over attempts
 *    strictly monotonic. Each non-zero push is one entry of `factors`, `weight` its size.
 * 4. **Delay**: the subcategory's ladder, by attempt (the last step repeats), except that a
 *    Mastercard advice code 24-30 fixes the wait exactly, and a balance decline with a known
 *    payday is retried on the payday when it comes before the ladder's step (at least 24 h): the
 *    ladder keeps trying between paydays (Recurly finds 48 h the best first wait for insufficient
 *    funds), and no payday is skipped:
 *
 *    | subcategory                             | attempt 1 | 2    | 3     | 4+    | log-odds lost per attempt |
 *    |-----------------------------------------|-----------|------|-------|-------|---------------------------|
 *    | soft_retry/processing_error             | 1 h       | 4 h  | 12 h  | 24 h  | 0.50                      |
 *    | soft_retry/balance                      | 24 h      | 72 h | 120 h | 168 h | 0.25                      |
 *    | soft_retry/balance, payday in d days    | the shorter of the step above and 24·d h (at least 24 h) | | | | 0.25 |
 *    | soft_retry/limit                        | 24 h      | 72 h | 72 h  | 72 h  | 0.35                      |
 *    | soft_retry/issuer_hold                  | 24 h      | 48 h | 72 h  | 72 h  | 0.40                      |
 *    | unknown/generic, referral, unmapped     | 24 h      | 48 h | 72 h  | 72 h  | 0.45                      |
 *    | hard_customer/*                         | 24 h nominal | same | same | same | score 0: "not retried until the card is updated" |
 *    | terminal/*                              | 24 h nominal | same | same | same | score 0: "never retried"   |
 *    | any, with Mastercard advice code 24-30  | the code's wait (1 h - 10 days) | same | same | same | as the subcategory |
 *
 *    Processing errors clear within hours (issuer or network hiccups) and a run of them means
 *    something persistent, hence the short steps and the steep decay; limits reset daily or at the
 *    statement; balances refill around payday, so they decay least; issuer holds and unknown
 *    declines get a day, then two, then three.
 *
 * The rates are engineering estimates, like the catalogue's; once the analytics rollups hold real
 * outcomes, the lgbm tier's table carries measured scores and this tier remains the floor.
 */
export const RULES_MODEL_VERSION = 'rules-1.0';

interface Profile {
  /** Hours to wait before attempt 1, 2, ...; the last step repeats. */
  readonly ladder: readonly number[];
  /** Log-odds lost per attempt after the first. */
  readonly attemptPenalty: number;
}

const UNKNOWN_PROFILE: Profile = { ladder: [24, 48, 72], attemptPenalty: 0.45 };

const RETRYABLE_PROFILES: Readonly<Record<SubcategoryOf<'soft_retry'> | SubcategoryOf<'unknown'>, Profile>> = {
  processing_error: { ladder: [1, 4, 12, 24], attemptPenalty: 0.5 },
  balance: { ladder: [24, 72, 120, 168], attemptPenalty: 0.25 },
  limit: { ladder: [24, 72], attemptPenalty: 0.35 },
  issuer_hold: { ladder: [24, 48, 72], attemptPenalty: 0.4 },
  generic: UNKNOWN_PROFILE,
  referral: UNKNOWN_PROFILE,
  unmapped: UNKNOWN_PROFILE,
};

/** Delay of a decline that is not retried: irrelevant, but every answer's delay is positive. */
const NOMINAL_DELAY_HOURS = 24;

/** The subcategory of an overridden category without one of its own: the most cautious reading. */
const DEFAULT_SUBCATEGORY: { readonly [C in DeclineCategory]: SubcategoryOf<C> } = {
  soft_retry: 'issuer_hold',
  hard_customer: 'invalid_details',
  terminal: 'do_not_retry',
  unknown: 'generic',
};

const RAW_NETWORK_CODE = /^[0-9A-Z]{2}$/i;

const RETRYABLE: Readonly<Record<DeclineCategory, boolean>> = { soft_retry: true, unknown: true, hard_customer: false, terminal: false };

/**
 * Log-odds each signal adds, and why. A signal that is absent, or whose push is 0, is not a factor.
 * - payday_proximity_days (balance only): an account is fullest just after payday.
 * - hour_of_day (balance only): early morning comes after overnight payroll deposits and before
 *   the day's spending; late evening comes after it.
 * - is_debit (balance only): a debit card draws on the account balance itself, refilled only by a
 *   deposit; a credit card's available credit frees up as the statement is paid.
 * - subscription_months, previous_successful_payments: a card that has paid this merchant before
 *   is likely to again; a first charge (right after a trial) has proven nothing.
 * - success_rate_90d: the customer's recent record, centred on 50 %.
 * - anomaly_score: a payment a risk model finds unusual is more often declined again.
 * - amount_cents: large charges are harder to cover (about US$500 and up).
 * - customer_lifetime_value_cents: long-standing, high-value customers fix their payment method.
 * - days_since_failure: a failure left open for weeks is less likely to recover by retry alone.
 */
const SIGNALS = {
  paydayProximity: (days: number): number => (days <= 1 ? 0.6 : days <= 3 ? 0.3 : days >= 10 ? -0.3 : 0),
  hourOfDay: (hour: number): number => (hour >= 4 && hour <= 8 ? 0.25 : hour >= 20 || hour <= 1 ? -0.15 : 0),
  isDebit: (debit: boolean): number => (debit ? -0.2 : 0.15),
  subscriptionMonths: (months: number): number => (months < 1 ? -0.2 : months < 3 ? 0 : months < 12 ? 0.15 : months < 24 ? 0.3 : 0.4),
  previousSuccessfulPayments: (count: number): number => (count === 0 ? -0.35 : count < 3 ? 0 : count < 12 ? 0.2 : 0.35),
  successRate90d: (rate: number): number => 2 * (rate - 0.5),
  anomalyScore: (anomaly: number): number => -2 * anomaly,
  amountUsd: (usd: number): number => (usd >= 2000 ? -0.3 : usd >= 500 ? -0.15 : 0),
  lifetimeValueUsd: (usd: number): number => (usd >= 1000 ? 0.2 : usd >= 250 ? 0.1 : 0),
  daysSinceFailure: (days: number): number => (days > 30 ? -0.4 : days > 14 ? -0.2 : 0),
} as const;

/** The decline as this tier reads it (step 1 above). */
export interface ScoredDecline {
  readonly category: DeclineCategory;
  readonly subcategory: DeclineSubcategory;
  readonly retryAllowed: boolean;
  /** Set when a Mastercard advice code fixes the wait. */
  readonly fixedDelayHours?: number;
  /** What decided the category: the classifier's source, or `caller` for an override. */
  readonly source: ClassificationSource | 'caller';
  /** The classifier's explanation (network rules, catalogue entry). */
  readonly explanation: string;
  readonly matched?: DeclineCodeRecord;
}

/** Step 1: classify, then apply the caller's category where the networks allow it. */
export function scoredDeclineOf(input: RetryScoreInput): ScoredDecline {
  const network = input.network ?? input.cardBrand;
  const signals = {
    declineCode: input.declineCode,
    ...(input.psp === undefined ? {} : { psp: input.psp }),
    ...(network === undefined ? {} : { network }),
    ...(input.adviceCode === undefined ? {} : { adviceCode: input.adviceCode }),
  };
  let classified = classifyDecline({ ...signals, ...(input.networkCode === undefined ? {} : { networkCode: input.networkCode }) });
  // A two-character code the catalogue does not know (`51`, `R1`) is most likely the raw network code itself.
  if (classified.source === 'none' && input.networkCode === undefined && RAW_NETWORK_CODE.test(input.declineCode.trim())) {
    classified = classifyDecline({ ...signals, networkCode: input.declineCode.trim() });
  }
  // Never lifted by a caller: a retry the networks forbid, or a terminal reading of the code.
  const locked =
    !classified.retry.allowed && (classified.source === 'advice_code' || classified.source === 'network_code' || classified.category === 'terminal');
  const category = locked ? classified.category : (input.declineCategory ?? classified.category);
  const given = input.declineSubcategory;
  const subcategory: DeclineSubcategory =
    given !== undefined && isSubcategoryOf(category, given) ? given : category === classified.category ? classified.subcategory : DEFAULT_SUBCATEGORY[category];
  const overridden = category !== classified.category;
  const retryAllowed = overridden ? RETRYABLE[category] : classified.retry.allowed && RETRYABLE[category];
  const fixedDelayHours = classified.source === 'advice_code' ? classified.retry.fixedDelayHours : undefined;
  return {
    category,
    subcategory,
    retryAllowed,
    ...(retryAllowed && fixedDelayHours !== undefined ? { fixedDelayHours } : {}),
    source: overridden ? 'caller' : classified.source,
    explanation: overridden ? `The caller classified it as ${category}.` : classified.retry.reason,
    ...(classified.matched && classified.matched.category === category && classified.matched.subcategory === subcategory
      ? { matched: classified.matched }
      : {}),
  };
}

const logit = (p: number): number => Math.log(p / (1 - p));
const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** The ladder of a retryable subcategory (the table above). */
export function ladderOf(subcategory: DeclineSubcategory): readonly number[] {
  return (RETRYABLE_PROFILES as Readonly<Record<string, Profile>>)[subcategory]?.ladder ?? UNKNOWN_PROFILE.ladder;
}

function profileOf(subcategory: DeclineSubcategory): Profile {
  return (RETRYABLE_PROFILES as Readonly<Record<string, Profile>>)[subcategory] ?? UNKNOWN_PROFILE;
}

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
const daysFromNow = (days: number): string => (days === 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`);
const article = (word: string): string => (/^[aeiou]/i.test(word) ? 'an' : 'a');

interface Push {
  readonly name: string;
  readonly value: number;
  /** How the reasoning names it. */
  readonly label: string;
}

/** The signals' pushes on the log-odds (SIGNALS above), absent and zero ones left out. */
function signalPushes(input: RetryScoreInput, decline: ScoredDecline, penalty: number): Push[] {
  const balance = decline.subcategory === 'balance';
  const pushes: Push[] = [];
  const add = (name: string, value: number, label: string): void => {
    if (Math.abs(value) >= 0.0005) pushes.push({ name, value, label });
  };
  add('attempt_number', -penalty * (Math.max(1, input.attemptNumber) - 1), `attempt ${input.attemptNumber}`);
  if (balance && input.paydayProximityDays !== undefined)
    add('payday_proximity_days', SIGNALS.paydayProximity(input.paydayProximityDays), `payday ${daysFromNow(input.paydayProximityDays)}`);
  if (balance) add('hour_of_day', SIGNALS.hourOfDay(input.hourOfDay), `an attempt at ${input.hourOfDay}:00`);
  if (balance && input.isDebit !== undefined) add('is_debit', SIGNALS.isDebit(input.isDebit), input.isDebit ? 'a debit card' : 'a credit card');
  if (input.subscriptionMonths !== undefined)
    add('subscription_months', SIGNALS.subscriptionMonths(input.subscriptionMonths), `${plural(input.subscriptionMonths, 'month')} of subscription`);
  if (input.previousSuccessfulPayments !== undefined) {
    add(
      'previous_successful_payments',
      SIGNALS.previousSuccessfulPayments(input.previousSuccessfulPayments),
      `${plural(input.previousSuccessfulPayments, 'earlier successful payment')}`,
    );
  }
  if (input.successRate90d !== undefined)
    add('success_rate_90d', SIGNALS.successRate90d(input.successRate90d), `a ${Math.round(input.successRate90d * 100)}% success rate over 90 days`);
  if (input.anomalyScore !== undefined) add('anomaly_score', SIGNALS.anomalyScore(input.anomalyScore), `an anomaly score of ${input.anomalyScore}`);
  add('amount_cents', SIGNALS.amountUsd(approximateUsd(input.amountCents, input.currency)), 'the large amount');
  if (input.customerLifetimeValueCents !== undefined) {
    add(
      'customer_lifetime_value_cents',
      SIGNALS.lifetimeValueUsd(approximateUsd(input.customerLifetimeValueCents, input.currency)),
      "the customer's lifetime value",
    );
  }
  if (input.daysSinceFailure !== undefined)
    add('days_since_failure', SIGNALS.daysSinceFailure(input.daysSinceFailure), `${plural(input.daysSinceFailure, 'day')} since the failure`);
  return pushes;
}

/** Step 4: the wait before the attempt, and why. */
function delayOf(input: RetryScoreInput, decline: ScoredDecline): { hours: number; why: string } {
  if (decline.fixedDelayHours !== undefined) return { hours: decline.fixedDelayHours, why: 'the card network fixes the wait' };
  const ladder = ladderOf(decline.subcategory);
  const step = Math.min(Math.max(1, input.attemptNumber), ladder.length);
  const stepHours = ladder[step - 1] as number;
  const onLadder = `step ${step} of the ${decline.subcategory} ladder (${ladder.join(', ')} h)`;
  if (decline.subcategory === 'balance' && input.paydayProximityDays !== undefined) {
    const paydayHours = Math.max(24, 24 * input.paydayProximityDays);
    if (paydayHours <= stepHours) return { hours: paydayHours, why: `the next payday, at least a day, comes before ${onLadder}` };
    return { hours: stepHours, why: `${onLadder}, before the next payday ${daysFromNow(input.paydayProximityDays)}` };
  }
  return { hours: stepHours, why: onLadder };
}

/** How much the answer can be trusted: what decided the category, plus the customer signals given. */
function confidenceOf(input: RetryScoreInput, decline: ScoredDecline): number {
  if (!decline.retryAllowed) return 0.95;
  const base: Readonly<Record<ScoredDecline['source'], number>> = {
    advice_code: 0.8,
    network_code: 0.75,
    provider_code: decline.matched ? 0.7 : 0.6,
    caller: 0.55,
    none: 0.35,
  };
  const signals = [
    input.isDebit,
    input.customerLifetimeValueCents,
    input.previousSuccessfulPayments,
    input.subscriptionMonths,
    input.daysSinceFailure,
    input.paydayProximityDays,
    input.successRate90d,
    input.anomalyScore,
  ].filter((value) => value !== undefined).length;
  return round(Math.min(0.9, base[decline.source] + Math.min(0.15, 0.03 * signals)), 2);
}

const toFactor = (push: Push): ScoreFactor => ({ name: push.name, impact: push.value >= 0 ? 'positive' : 'negative', weight: round(Math.abs(push.value), 3) });

const listed = (labels: readonly string[]): string =>
  labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1) as string}`;

/**
 * Scores the next attempt of a failed payment by rules (see above).
 *
 * @example
 * scoreRetryByRules({ declineCode: 'insufficient_funds', psp: 'stripe', amountCents: 4999, currency: 'usd', attemptNumber: 1, hourOfDay: 6 });
 * // => { score: 0.512, delayHours: 24, source: 'rules', factors: [{ name: 'hour_of_day', impact: 'positive', ... }, ...], ... }
 */
export function scoreRetryByRules(input: RetryScoreInput): RetryScore {
  return assessRetryByRules(input).result;
}

/** The rules tier's answer together with the decline as it read it (the higher tiers need both). */
export function assessRetryByRules(input: RetryScoreInput): { readonly result: RetryScore; readonly decline: ScoredDecline } {
  const decline = scoredDeclineOf(input);
  const code = input.declineCode.trim() || 'The decline';
  if (!decline.retryAllowed) {
    const verdict = decline.category === 'hard_customer' ? 'not retried until the card is updated' : 'never retried';
    const result: RetryScore = {
      score: 0,
      delayHours: NOMINAL_DELAY_HOURS,
      confidence: confidenceOf(input, decline),
      modelVersion: RULES_MODEL_VERSION,
      source: 'rules',
      reasoning: `${code} is ${article(decline.category)} ${decline.category} decline (${decline.subcategory}): ${verdict}. ${decline.explanation}`,
      factors: [{ name: 'decline_code', impact: 'negative', weight: 1 }],
    };
    return { result, decline };
  }

  const base = decline.matched?.recovery_rate ?? baselineRecoveryRate(decline.category, decline.subcategory);
  const pushes = signalPushes(input, decline, profileOf(decline.subcategory).attemptPenalty);
  const baseLogit = logit(Math.min(0.99, Math.max(0.01, base)));
  const score = round(sigmoid(pushes.reduce((sum, push) => sum + push.value, baseLogit)), 3);
  const delay = delayOf(input, decline);
  const factors = [{ name: 'decline_code', value: baseLogit, label: code }, ...pushes].map(toFactor).sort((a, b) => b.weight - a.weight);

  const strongest = [...pushes].sort((a, b) => Math.abs(b.value) - Math.abs(a.value));
  const raised = strongest
    .filter((push) => push.value > 0)
    .slice(0, 2)
    .map((push) => push.label);
  const lowered = strongest
    .filter((push) => push.value < 0)
    .slice(0, 2)
    .map((push) => push.label);
  const moves = [raised.length > 0 ? `raised by ${listed(raised)}` : '', lowered.length > 0 ? `lowered by ${listed(lowered)}` : '']
    .filter(Boolean)
    .join(' and ');
  const result: RetryScore = {
    score,
    delayHours: delay.hours,
    confidence: confidenceOf(input, decline),
    modelVersion: RULES_MODEL_VERSION,
    source: 'rules',
    reasoning:
      `${code} is ${article(decline.category)} ${decline.category} decline (${decline.subcategory}) that recovers about ${Math.round(base * 100)}% of the time; ` +
      `this attempt scores ${Math.round(score * 100)}%${moves ? `, ${moves}` : ''}. Retry in ${delay.hours} h: ${delay.why}.`,
    factors,
  };
  return { result, decline };
}
