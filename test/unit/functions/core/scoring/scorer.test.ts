import type { AiModel, AiRequest, AiResponse } from '#core/ai';
import { lookupKeyForInput } from '#core/scoring/lookup-key';
import { PAYMENT_LABEL, RETRY_SCORING_TASK_LINE, RULES_BASELINE_LABEL } from '#core/scoring/prompt';
import { scoreRetryByRules } from '#core/scoring/rules';
import { createRetryScorer, DEFAULT_AI_TIMEOUT_MS, ENHANCED_MODEL_VERSION } from '#core/scoring/scorer';
import { MAX_DELAY_HOURS, MIN_DELAY_HOURS, type PrecomputedScore, type RetryScoreInput, type ScoreLookup } from '#core/scoring/types';
import { localModel, LOCAL_MODEL_NAME } from '#adapters/ai/local-model';

const INPUT: RetryScoreInput = {
  declineCode: 'insufficient_funds',
  psp: 'stripe',
  amountCents: 4999,
  currency: 'usd',
  attemptNumber: 2,
  hourOfDay: 6,
  successRate90d: 0.7,
};
const RULES = scoreRetryByRules(INPUT);

/** An AI port that answers with `text` (or runs `behaviour`) and records what it was asked. */
class FakeAi implements AiModel {
  readonly requests: AiRequest[] = [];
  constructor(private readonly behaviour: (request: AiRequest) => Promise<AiResponse>) {}
  generate(request: AiRequest): Promise<AiResponse> {
    this.requests.push(request);
    return this.behaviour(request);
  }
  static answering(text: string, model = 'fake-llm-1'): FakeAi {
    return new FakeAi(async () => ({ text, model, tokensUsed: 42 }));
  }
}

/** A lookup table in memory that records the keys it was asked for. */
class MemoryLookup implements ScoreLookup {
  readonly asked: string[] = [];
  constructor(
    private readonly entries: readonly PrecomputedScore[] = [],
    private readonly failure?: Error,
  ) {}
  async get(key: string): Promise<PrecomputedScore | undefined> {
    this.asked.push(key);
    if (this.failure) throw this.failure;
    return this.entries.find((entry) => entry.key === key);
  }
}

const answer = (fields: Record<string, unknown>): string => JSON.stringify(fields);
const neverAnswers = (): FakeAi =>
  new FakeAi((request) => new Promise((_resolve, reject) => request.signal?.addEventListener('abort', () => reject(new Error('aborted')))));

describe('createRetryScorer', () => {
  describe('rules', () => {
    it('answers with the rules tier and asks neither the AI nor the table', async () => {
      // Prepare
      const ai = FakeAi.answering(answer({ score: 0.9, delay_hours: 2, reasoning: 'x' }));
      const lookup = new MemoryLookup();
      // Act
      const result = await createRetryScorer({ ai, lookup }).score(INPUT, 'rules');
      // Assess
      expect(result).toEqual(RULES);
      expect(ai.requests).toHaveLength(0);
      expect(lookup.asked).toHaveLength(0);
    });
  });

  describe('enhanced', () => {
    it('asks the AI with the payment and the rules baseline and answers with its clamped JSON', async () => {
      // Prepare
      const ai = FakeAi.answering(answer({ score: 0.62, delay_hours: 30, reasoning: 'Payday is close and the customer pays reliably.' }));
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup() }).score(INPUT, 'enhanced');
      // Assess
      expect(result).toMatchObject({
        score: 0.62,
        delayHours: 30,
        confidence: RULES.confidence,
        modelVersion: `${ENHANCED_MODEL_VERSION}/fake-llm-1`,
        source: 'enhanced',
        reasoning: 'Payday is close and the customer pays reliably.',
      });
      expect(result.fallbackFrom).toBeUndefined();
      const [request] = ai.requests;
      expect(request?.temperature).toBe(0);
      expect(request?.system).toContain('JSON');
      const lines = request?.prompt.split('\n') ?? [];
      expect(lines[0]).toBe(RETRY_SCORING_TASK_LINE);
      expect(JSON.parse(lines.find((line) => line.startsWith(PAYMENT_LABEL))?.slice(PAYMENT_LABEL.length) ?? '')).toMatchObject({
        decline_code: 'insufficient_funds',
        attempt_number: 2,
        success_rate_90d: 0.7,
      });
      expect(JSON.parse(lines.find((line) => line.startsWith(RULES_BASELINE_LABEL))?.slice(RULES_BASELINE_LABEL.length) ?? '')).toMatchObject({
        score: RULES.score,
        delay_hours: RULES.delayHours,
      });
    });

    it("adds the AI's move as an ai_adjustment factor beside the rules factors", async () => {
      // Prepare
      const ai = FakeAi.answering(answer({ score: 0.9, delay_hours: 24, reasoning: 'Strong history.' }));
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup() }).score(INPUT, 'enhanced');
      // Assess
      expect(result.factors).toEqual(expect.arrayContaining([...RULES.factors, { name: 'ai_adjustment', impact: 'positive', weight: expect.any(Number) }]));
      expect(result.factors).toHaveLength(RULES.factors.length + 1);
    });

    it.each([
      ['a score above 1 and a delay beyond 30 days', { score: 1.7, delay_hours: 5000 }, 1, MAX_DELAY_HOURS],
      ['a negative score and delay', { score: -0.4, delay_hours: -3 }, 0, MIN_DELAY_HOURS],
    ])('clamps %s', async (_what, fields, score, delayHours) => {
      // Prepare
      const ai = FakeAi.answering(answer({ ...fields, reasoning: 'out of range', confidence: 7 }));
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup() }).score(INPUT, 'enhanced');
      // Assess
      expect(result).toMatchObject({ score, delayHours, confidence: 1, source: 'enhanced' });
    });

    it('accepts the JSON inside a ```json fence', async () => {
      // Prepare
      const ai = FakeAi.answering(`\`\`\`json\n${answer({ score: 0.5, delay_hours: 12, reasoning: 'fenced' })}\n\`\`\``);
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup() }).score(INPUT, 'enhanced');
      // Assess
      expect(result).toMatchObject({ source: 'enhanced', score: 0.5, delayHours: 12, reasoning: 'fenced' });
    });

    it('falls back to the rules, marked, when the AI throws', async () => {
      // Prepare
      const ai = new FakeAi(async () => {
        throw new Error('ThrottlingException');
      });
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup() }).score(INPUT, 'enhanced');
      // Assess
      expect(result).toEqual({ ...RULES, fallbackFrom: 'enhanced', fallbackReason: 'ai_error' });
    });

    it('falls back to the rules after the timeout when the AI does not answer, and aborts the call', async () => {
      // Prepare
      const ai = neverAnswers();
      const started = Date.now();
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup(), timeoutMs: 50 }).score(INPUT, 'enhanced');
      // Assess
      expect(result).toEqual({ ...RULES, fallbackFrom: 'enhanced', fallbackReason: 'ai_timeout' });
      expect(Date.now() - started).toBeLessThan(DEFAULT_AI_TIMEOUT_MS);
      expect(ai.requests[0]?.signal?.aborted).toBe(true);
    });

    it('falls back on a slow answer that arrives after the timeout', async () => {
      // Prepare
      const ai = new FakeAi(
        () =>
          new Promise((resolve) =>
            setTimeout(() => resolve({ text: answer({ score: 0.9, delay_hours: 1, reasoning: 'late' }), model: 'slow', tokensUsed: 1 }), 200),
          ),
      );
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup(), timeoutMs: 30 }).score(INPUT, 'enhanced');
      // Assess
      expect(result.source).toBe('rules');
      expect(result.fallbackReason).toBe('ai_timeout');
    });

    it.each([
      ['prose', 'I think the retry will probably work tomorrow.'],
      ['an empty answer', ''],
      ['truncated JSON', '{"score": 0.4, "delay_hours": '],
      ['a JSON array', '[0.4, 12]'],
      ['a string score', answer({ score: 'high', delay_hours: 12, reasoning: 'x' })],
      ['a missing delay', answer({ score: 0.4, reasoning: 'x' })],
      ['an empty reasoning', answer({ score: 0.4, delay_hours: 12, reasoning: '  ' })],
      ['JSON followed by prose', `${answer({ score: 0.4, delay_hours: 12, reasoning: 'x' })} Hope this helps!`],
    ])('falls back to the rules, marked, when the AI answers %s', async (_what, text) => {
      // Prepare
      const ai = FakeAi.answering(text);
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup() }).score(INPUT, 'enhanced');
      // Assess
      expect(result).toEqual({ ...RULES, fallbackFrom: 'enhanced', fallbackReason: 'ai_invalid_response' });
    });

    it('answers a do-not-retry decline by the rules without asking the AI', async () => {
      // Prepare
      const ai = FakeAi.answering(answer({ score: 0.99, delay_hours: 1, reasoning: 'retry it' }));
      const input = { ...INPUT, declineCode: 'fraudulent' };
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup() }).score(input, 'enhanced');
      // Assess
      expect(result).toMatchObject({ score: 0, source: 'rules', fallbackFrom: 'enhanced', fallbackReason: 'do_not_retry' });
      expect(ai.requests).toHaveLength(0);
    });

    it('keeps the wait a Mastercard advice code fixes whatever the AI says', async () => {
      // Prepare
      const ai = FakeAi.answering(answer({ score: 0.5, delay_hours: 3, reasoning: 'sooner' }));
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup() }).score({ ...INPUT, adviceCode: '27', network: 'mastercard' }, 'enhanced');
      // Assess
      expect(result).toMatchObject({ source: 'enhanced', delayHours: 96, score: 0.5 });
    });

    it('answers with the rules baseline through the local deterministic model, saying it is one', async () => {
      // Act
      const result = await createRetryScorer({ ai: localModel, lookup: new MemoryLookup() }).score(INPUT, 'enhanced');
      // Assess
      expect(result).toMatchObject({
        source: 'enhanced',
        score: RULES.score,
        delayHours: RULES.delayHours,
        confidence: RULES.confidence,
        modelVersion: `${ENHANCED_MODEL_VERSION}/${LOCAL_MODEL_NAME}`,
      });
      expect(result.reasoning).toMatch(/^Local deterministic model \(no LLM\) kept the rules baseline\./);
      expect(result.factors).toEqual(RULES.factors);
    });
  });

  describe('lgbm', () => {
    const KEY = lookupKeyForInput(INPUT);
    const HIT: PrecomputedScore = {
      key: KEY,
      score: 0.41,
      delayHours: 36,
      confidence: 0.82,
      modelVersion: 'lgbm-2026-06',
      factors: [{ name: 'decline_code', impact: 'negative', weight: 0.3 }],
    };

    it("answers with the pre-computed score under the request's key", async () => {
      // Prepare
      const ai = FakeAi.answering(answer({ score: 0.9, delay_hours: 2, reasoning: 'x' }));
      const lookup = new MemoryLookup([HIT]);
      // Act
      const result = await createRetryScorer({ ai, lookup }).score(INPUT, 'lgbm');
      // Assess
      expect(lookup.asked).toEqual(['insufficient_funds#2#10_50#usd']);
      expect(result).toMatchObject({ score: 0.41, delayHours: 36, confidence: 0.82, modelVersion: 'lgbm-2026-06', source: 'lgbm', factors: HIT.factors });
      expect(result.reasoning).toContain(KEY);
      expect(result.fallbackFrom).toBeUndefined();
      expect(ai.requests).toHaveLength(0);
    });

    it('falls back to the enhanced tier, marked, when the key is not in the table', async () => {
      // Prepare
      const ai = FakeAi.answering(answer({ score: 0.55, delay_hours: 20, reasoning: 'AI view' }));
      const lookup = new MemoryLookup([{ ...HIT, key: 'other#1#10_50#usd' }]);
      // Act
      const result = await createRetryScorer({ ai, lookup }).score(INPUT, 'lgbm');
      // Assess
      expect(result).toMatchObject({ source: 'enhanced', score: 0.55, delayHours: 20, fallbackFrom: 'lgbm', fallbackReason: 'lookup_miss' });
      expect(ai.requests).toHaveLength(1);
    });

    it('falls back through enhanced to the rules when the key is missing and the AI fails too', async () => {
      // Prepare
      const ai = FakeAi.answering('not json');
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup() }).score(INPUT, 'lgbm');
      // Assess
      expect(result).toEqual({ ...RULES, fallbackFrom: 'lgbm', fallbackReason: 'lookup_miss' });
    });

    it('falls back to the enhanced tier when the table cannot be read', async () => {
      // Prepare
      const ai = FakeAi.answering(answer({ score: 0.5, delay_hours: 20, reasoning: 'AI view' }));
      // Act
      const result = await createRetryScorer({ ai, lookup: new MemoryLookup([HIT], new Error('ProvisionedThroughputExceeded')) }).score(INPUT, 'lgbm');
      // Assess
      expect(result).toMatchObject({ source: 'enhanced', fallbackFrom: 'lgbm', fallbackReason: 'lookup_error' });
    });

    it('answers a do-not-retry decline by the rules even when the table holds a score for it', async () => {
      // Prepare
      const input = { ...INPUT, declineCode: 'stolen_card' };
      const lookup = new MemoryLookup([{ ...HIT, key: lookupKeyForInput(input), score: 0.8 }]);
      // Act
      const result = await createRetryScorer({ ai: localModel, lookup }).score(input, 'lgbm');
      // Assess
      expect(result).toMatchObject({ score: 0, source: 'rules', fallbackFrom: 'lgbm', fallbackReason: 'do_not_retry' });
      expect(lookup.asked).toHaveLength(0);
    });
  });
});
