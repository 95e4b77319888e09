/**
 * The port every call to a language model goes through (DESIGN §2, ports and adapters): Amazon
 * Bedrock on AWS, a deterministic local model elsewhere (functions/adapters/ai). Domain code
 * depends on this, never on an adapter; `AI_PROVIDER` picks the adapter.
 */
export interface AiRequest {
  /** Instructions: what the model is and how it must answer. */
  readonly system: string;
  /** The user turn. */
  readonly prompt: string;
  /** Upper bound of the answer's length, in tokens. */
  readonly maxTokens: number;
  /** 0 (deterministic) - 2. */
  readonly temperature: number;
  /** Aborts the call (a caller's timeout); an adapter that cannot abort ignores it. */
  readonly signal?: AbortSignal;
}

export interface AiResponse {
  readonly text: string;
  /** The model that answered; the local adapter says in so many words that it is not an LLM. */
  readonly model: string;
  /** Input and output tokens together, as the model counts them. */
  readonly tokensUsed: number;
  /** The prompt's tokens, when the model reports them apart (pricing: core/ai-generation/pricing.ts). */
  readonly inputTokens?: number;
  /** The answer's tokens, when the model reports them apart. */
  readonly outputTokens?: number;
}

export interface AiModel {
  generate(request: AiRequest): Promise<AiResponse>;
}

/** The `model` of the deterministic local adapter (functions/adapters/ai/local-model.ts): it says it is no LLM. */
export const LOCAL_MODEL_NAME = 'local-deterministic-model';

/** The model did not answer within the caller's bound. */
export class AiTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`The AI model did not answer within ${timeoutMs} ms`);
    this.name = 'AiTimeoutError';
  }
}

/**
 * One call through the port, bounded: after `timeoutMs` the call is aborted (its signal) and
 * AiTimeoutError is thrown, whether or not the adapter honours the abort, so a caller never waits
 * longer. Any other failure of the adapter is rethrown as it is.
 *
 * @example const answer = await generateWithin(aiModel, { system, prompt, maxTokens: 300, temperature: 0 }, 2000);
 */
export async function generateWithin(model: AiModel, request: Omit<AiRequest, 'signal'>, timeoutMs: number): Promise<AiResponse> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new AiTimeoutError(timeoutMs));
      controller.abort();
    }, timeoutMs);
  });
  try {
    return await Promise.race([model.generate({ ...request, signal: controller.signal }), timeout]);
  } catch (error) {
    // An adapter that rejects as soon as it is aborted must not turn the timeout into an error.
    throw timedOut ? new AiTimeoutError(timeoutMs) : error;
  } finally {
    clearTimeout(timer);
  }
}
