import type { DeclineCategory, DeclineSubcategory } from '#core/decline-codes/types';

/** The three tiers of POST /scoring/retry (spec, "AI, scoring, vectors"). */
export const SCORING_MODELS = ['rules', 'enhanced', 'lgbm'] as const;
export type ScoringModel = (typeof SCORING_MODELS)[number];

/** Bounds of a model's recommended delay (the enhanced and lgbm tiers are clamped to them). */
export const MIN_DELAY_HOURS = 1;
/** 30 days: Visa counts reattempts over a rolling 30 days, so a longer wait starts a new window. */
export const MAX_DELAY_HOURS = 720;

/**
 * One failed payment's next attempt, as the scorers read it. Only `declineCode`, `amountCents`,
 * `currency`, `attemptNumber` and `hourOfDay` are required; every other signal is used when given
 * and leaves the score alone when not.
 */
export interface RetryScoreInput {
  /** The provider's decline code (`insufficient_funds`, `05`, ...). */
  readonly declineCode: string;
  /** Smallest currency unit. */
  readonly amountCents: number;
  /** Lowercase ISO 4217. */
  readonly currency: string;
  /**
   * Overrides the classifier's category when it disagrees (lowercase; the API layer normalises A's
   * `SoftRetry` form before the core sees it).
   */
  readonly declineCategory?: DeclineCategory;
  /** Used only together with a `declineCategory` it belongs to (a payment's stored classification). */
  readonly declineSubcategory?: DeclineSubcategory | (string & {});
  /** The provider (`stripe`, ...): the catalogue lookup of the code is exact with it. */
  readonly psp?: string;
  /** Raw network response code, card network and advice code (MAC, Stripe advice_code), when known: DESIGN §2b precedence. */
  readonly networkCode?: string;
  readonly network?: string;
  readonly adviceCode?: string;
  /** 1-based: 1 is the first retry after the original failure. */
  readonly attemptNumber: number;
  /** Hour of the attempt, 0-23, in the customer's local time when known. */
  readonly hourOfDay: number;
  /** 0 = Sunday ... 6 = Saturday. */
  readonly dayOfWeek?: number;
  /** `visa`, `mastercard`, ... (also read as the network when `network` is not given). */
  readonly cardBrand?: string;
  readonly isDebit?: boolean;
  readonly customerLifetimeValueCents?: number;
  readonly previousSuccessfulPayments?: number;
  readonly subscriptionMonths?: number;
  readonly daysSinceFailure?: number;
  /** Days until the customer's next expected payday (0 = today). */
  readonly paydayProximityDays?: number;
  /** Share of this customer's (or card's) charges that succeeded in the last 90 days, 0-1. */
  readonly successRate90d?: number;
  /** How unusual this payment looks to a risk model, 0 (normal) - 1 (anomalous). */
  readonly anomalyScore?: number;
}

/**
 * One signal that moved the score: `weight` is the size of its push on the log-odds (rounded to
 * 3 decimals). A do-not-retry decline has one factor, `decline_code`, of weight 1: it decides alone.
 */
export interface ScoreFactor {
  readonly name: string;
  readonly impact: 'positive' | 'negative';
  readonly weight: number;
}

/** Why a tier answered with a lower tier's result. */
export type FallbackReason =
  /** The AI port threw (network, throttling, service error). */
  | 'ai_error'
  /** The AI port did not answer within the scorer's timeout. */
  | 'ai_timeout'
  /** The AI answered something that is not the JSON object asked for. */
  | 'ai_invalid_response'
  /** No pre-computed score for the lookup key. */
  | 'lookup_miss'
  /** The lookup table could not be read. */
  | 'lookup_error'
  /** A do-not-retry decline: the card-network rules decide, no model may score it up. */
  | 'do_not_retry';

export interface RetryScore {
  /** Probability that the retry succeeds, 0-1. */
  readonly score: number;
  /** Recommended wait before the attempt, in hours, > 0. */
  readonly delayHours: number;
  /** How much the answer can be trusted, 0-1. */
  readonly confidence: number;
  readonly modelVersion: string;
  /** The tier that produced this answer. */
  readonly source: ScoringModel;
  /** Set when the requested tier could not answer and a lower one did (`source`). */
  readonly fallbackFrom?: Exclude<ScoringModel, 'rules'>;
  readonly fallbackReason?: FallbackReason;
  /** One or two sentences naming the main factors. */
  readonly reasoning: string;
  /** Every signal that moved the score, largest first. */
  readonly factors: readonly ScoreFactor[];
}

/** A pre-computed score of the lgbm tier, stored under its lookup key (lookup-key.ts). */
export interface PrecomputedScore {
  readonly key: string;
  readonly score: number;
  readonly delayHours: number;
  readonly confidence: number;
  readonly modelVersion: string;
  readonly reasoning?: string;
  readonly factors?: readonly ScoreFactor[];
}

/** Port: the table of pre-computed scores (functions/data/score-lookup-repository.ts). */
export interface ScoreLookup {
  get(key: string): Promise<PrecomputedScore | undefined>;
}
