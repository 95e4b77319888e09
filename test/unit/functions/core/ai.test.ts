/** The bounded call through the AI port (core/ai.ts generateWithin). */
import { type AiModel, type AiRequest, AiTimeoutError, generateWithin } from '#core/ai';

const REQUEST = { system: 's', prompt: 'p', maxTokens: 50, temperature: 0 };

describe('generateWithin', () => {
  it('returns the answer of a model that answers in time', async () => {
    // Prepare
    const model: AiModel = { generate: async () => ({ text: 'ok', model: 'm', tokensUsed: 3 }) };
    // Act
    const answer = await generateWithin(model, REQUEST, 1000);
    // Assess
    expect(answer).toEqual({ text: 'ok', model: 'm', tokensUsed: 3 });
  });

  it('throws AiTimeoutError after the bound even when the model ignores the abort, and aborts its signal', async () => {
    // Prepare
    let seen: AiRequest | undefined;
    const model: AiModel = {
      generate: (request) => {
        seen = request;
        return new Promise(() => undefined);
      },
    };
    const started = Date.now();
    // Act
    const outcome = generateWithin(model, REQUEST, 50);
    // Assess
    await expect(outcome).rejects.toBeInstanceOf(AiTimeoutError);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(seen?.signal?.aborted).toBe(true);
  });

  it('reports a timeout, not the abort error, for a model that rejects as soon as it is aborted', async () => {
    // Prepare
    const model: AiModel = {
      generate: (request) => new Promise((_resolve, reject) => request.signal?.addEventListener('abort', () => reject(new Error('aborted by the caller')))),
    };
    // Act
    const outcome = generateWithin(model, REQUEST, 20);
    // Assess
    await expect(outcome).rejects.toBeInstanceOf(AiTimeoutError);
  });

  it("rethrows the model's own error as it is", async () => {
    // Prepare
    const failure = new Error('throttled');
    const model: AiModel = { generate: async () => Promise.reject(failure) };
    // Act
    const outcome = generateWithin(model, REQUEST, 1000);
    // Assess
    await expect(outcome).rejects.toBe(failure);
  });
});
