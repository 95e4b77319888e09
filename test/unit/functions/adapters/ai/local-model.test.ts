import { LOCAL_MODEL_NAME, localModel } from '#adapters/ai/local-model';
import { RETRY_SCORING_SYSTEM, retryScoringPrompt } from '#core/scoring/prompt';
import { scoreRetryByRules } from '#core/scoring/rules';
import type { RetryScoreInput } from '#core/scoring/types';

const INPUT: RetryScoreInput = { declineCode: 'processing_error', psp: 'stripe', amountCents: 1200, currency: 'eur', attemptNumber: 3, hourOfDay: 9 };

describe('localModel', () => {
  it('answers a retry-scoring prompt with the strict JSON of the rules baseline it carries', async () => {
    // Prepare
    const rules = scoreRetryByRules(INPUT);
    // Act
    const response = await localModel.generate({ system: RETRY_SCORING_SYSTEM, prompt: retryScoringPrompt(INPUT, rules), maxTokens: 300, temperature: 0 });
    // Assess
    expect(response.model).toBe(LOCAL_MODEL_NAME);
    expect(JSON.parse(response.text)).toEqual({
      score: rules.score,
      delay_hours: rules.delayHours,
      confidence: rules.confidence,
      reasoning: `Local deterministic model (no LLM) kept the rules baseline. ${rules.reasoning}`,
    });
    expect(response.tokensUsed).toBeGreaterThan(response.text.length / 4);
  });

  it('answers the same request with the same text', async () => {
    // Prepare
    const request = { system: 'Be brief.', prompt: 'Write a dunning email for Ada.\nShe owes 12 EUR.', maxTokens: 200, temperature: 0.7 };
    // Act
    const [first, second] = await Promise.all([localModel.generate(request), localModel.generate({ ...request })]);
    // Assess
    expect(first).toEqual(second);
  });

  it("says what it is in any other answer and quotes the prompt's first line, within maxTokens", async () => {
    // Act
    const response = await localModel.generate({
      system: 'Be brief.',
      prompt: 'Write a dunning email for Ada.\nShe owes 12 EUR.',
      maxTokens: 50,
      temperature: 0.7,
    });
    // Assess
    expect(response.text).toContain(LOCAL_MODEL_NAME);
    expect(response.text).toContain('deterministic local stand-in');
    expect(response.text).toContain('Write a dunning email for Ada.');
    expect(response.text).not.toContain('12 EUR');
    expect(response.text.length).toBeLessThanOrEqual(200);
  });

  it('does not take a prompt without the task line for a scoring prompt', async () => {
    // Prepare
    const prompt = retryScoringPrompt(INPUT, scoreRetryByRules(INPUT)).replace(/^Task: retry_scoring\n/, '');
    // Act
    const response = await localModel.generate({ system: RETRY_SCORING_SYSTEM, prompt, maxTokens: 300, temperature: 0 });
    // Assess
    expect(() => JSON.parse(response.text)).toThrow();
  });

  it('refuses a request whose signal is already aborted', async () => {
    // Prepare
    const controller = new AbortController();
    controller.abort();
    // Act and assess
    await expect(localModel.generate({ system: 's', prompt: 'p', maxTokens: 50, temperature: 0, signal: controller.signal })).rejects.toThrow();
  });
});
