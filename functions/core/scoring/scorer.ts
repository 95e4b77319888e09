import { type AiModel, AiTimeoutError, generateWithin } from '#core/ai';
import { lookupKeyForInput } from './lookup-key';
import { parseAiRetryAnswer, RETRY_SCORING_SYSTEM, retryScoringPrompt } from './prompt';
import { assessRetryByRules, type ScoredDecline } from './rules';
import { type FallbackReason, MAX_DELAY_HOURS, MIN_DELAY_HOURS, type RetryScore, type RetryScoreInput, type ScoreLookup, type ScoringModel } from './types';

/**
 * The three tiers of POST /scoring/retry behind one call (spec, "AI, scoring, vectors"):
 * - `rules`: scoreRetryByRules, always available.
 * - `enhanced`: the AI port is asked to adjust the rules answer (prompt.ts); its answer must be the
 *   strict JSON object asked for. Any error, an invalid answer, or no answer within `timeoutMs`
 *   gives the rules answer marked `fallbackFrom: 'enhanced'` with the reason.
 * - `lgbm`: the pre-computed score under the request's lookup key (lookup-key.ts); a miss (or an
 *   unreadable table) gives the enhanced answer, marked `fallbackFrom: 'lgbm'` with the reason
 *   lgbm failed, `source` saying which tier answered in the end.
 * Whatever the tier, the card networks win: a decline the rules read as do-not-retry is answered
 * by the rules (score 0, reason `do_not_retry`) without asking any model, and a wait a Mastercard
 * advice code fixes replaces the model's delay. A model's score is clamped to 0-1 and its delay to
 * MIN_DELAY_HOURS-MAX_DELAY_HOURS.
 */
export const DEFAULT_AI_TIMEOUT_MS = 2000;
export const ENHANCED_MODEL_VERSION = 'enhanced-1.0';
const MAX_REASONING_LENGTH = 500;
const AI_MAX_TOKENS = 300;

export interface RetryScorerPorts {
  readonly ai: AiModel;
  readonly lookup: ScoreLookup;
  /** @default 2000 */
  readonly timeoutMs?: number;
}

export interface RetryScorer {
  score(input: RetryScoreInput, model: ScoringModel): Promise<RetryScore>;
}

const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));
const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;
const logit = (p: number): number => {
  const bounded = clamp(p, 0.001, 0.999);
  return Math.log(bounded / (1 - bounded));
};

const fellBack = (result: RetryScore, from: Exclude<ScoringModel, 'rules'>, reason: FallbackReason): RetryScore => ({
  ...result,
  fallbackFrom: from,
  fallbackReason: reason,
});

/** The network-fixed wait replaces any model's delay. */
const networkDelay = (decline: ScoredDecline, delayHours: number): number => decline.fixedDelayHours ?? delayHours;

/**
 * @example
 * const scorer = createRetryScorer({ ai: aiModel, lookup: scoreLookupRepository });
 * await scorer.score({ declineCode: 'insufficient_funds', amountCents: 4999, currency: 'usd', attemptNumber: 1, hourOfDay: 12 }, 'enhanced');
 */
export function createRetryScorer(ports: RetryScorerPorts): RetryScorer {
  const timeoutMs = ports.timeoutMs ?? DEFAULT_AI_TIMEOUT_MS;

  async function askAi(input: RetryScoreInput, rules: RetryScore): Promise<{ text: string; model: string }> {
    return generateWithin(
      ports.ai,
      { system: RETRY_SCORING_SYSTEM, prompt: retryScoringPrompt(input, rules), maxTokens: AI_MAX_TOKENS, temperature: 0 },
      timeoutMs,
    );
  }

  async function enhanced(input: RetryScoreInput, rules: RetryScore, decline: ScoredDecline): Promise<RetryScore> {
    let answer: { text: string; model: string };
    try {
      answer = await askAi(input, rules);
    } catch (error) {
      return fellBack(rules, 'enhanced', error instanceof AiTimeoutError ? 'ai_timeout' : 'ai_error');
    }
    const parsed = parseAiRetryAnswer(answer.text);
    if (parsed === undefined) return fellBack(rules, 'enhanced', 'ai_invalid_response');
    const score = round(clamp(parsed.score, 0, 1), 3);
    const shift = logit(score) - logit(rules.score);
    const factors =
      Math.abs(shift) >= 0.0005
        ? [
            ...rules.factors,
            { name: 'ai_adjustment', impact: shift > 0 ? ('positive' as const) : ('negative' as const), weight: round(Math.abs(shift), 3) },
          ].sort((a, b) => b.weight - a.weight)
        : rules.factors;
    return {
      score,
      delayHours: networkDelay(decline, round(clamp(parsed.delay_hours, MIN_DELAY_HOURS, MAX_DELAY_HOURS), 1)),
      confidence: parsed.confidence === undefined ? rules.confidence : round(clamp(parsed.confidence, 0, 1), 2),
      modelVersion: `${ENHANCED_MODEL_VERSION}/${answer.model}`,
      source: 'enhanced',
      reasoning: parsed.reasoning.slice(0, MAX_REASONING_LENGTH),
      factors,
    };
  }

  async function lgbm(input: RetryScoreInput, rules: RetryScore, decline: ScoredDecline): Promise<RetryScore> {
    const key = lookupKeyForInput(input);
    let hit: Awaited<ReturnType<typeof ports.lookup.get>>;
    try {
      hit = await ports.lookup.get(key);
    } catch {
      return fellBack(await enhanced(input, rules, decline), 'lgbm', 'lookup_error');
    }
    if (hit === undefined) return fellBack(await enhanced(input, rules, decline), 'lgbm', 'lookup_miss');
    return {
      score: round(clamp(hit.score, 0, 1), 3),
      delayHours: networkDelay(decline, round(clamp(hit.delayHours, MIN_DELAY_HOURS, MAX_DELAY_HOURS), 1)),
      confidence: round(clamp(hit.confidence, 0, 1), 2),
      modelVersion: hit.modelVersion,
      source: 'lgbm',
      reasoning: hit.reasoning ?? `Pre-computed score of model ${hit.modelVersion} for ${key} (decline code, attempt, amount band, currency).`,
      factors: hit.factors ?? [],
    };
  }

  return {
    async score(input, model) {
      const { result: rules, decline } = assessRetryByRules(input);
      if (model === 'rules') return rules;
      if (!decline.retryAllowed) return fellBack(rules, model, 'do_not_retry');
      return model === 'enhanced' ? enhanced(input, rules, decline) : lgbm(input, rules, decline);
    },
  };
}
