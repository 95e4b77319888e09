import { createHash } from 'node:crypto';
import { type AiModel, AiTimeoutError, generateWithin, LOCAL_MODEL_NAME } from '#core/ai';
import { costUsd } from '#core/ai-generation/pricing';
import { CACHE_TTL_SECONDS, type PreparedPrompt } from '#core/ai-generation/prompts';
import { UpstreamError, UpstreamTimeoutError } from '#core/errors';
import { getCachedAnswer, putCachedAnswer } from '#data/ai-cache-repository';
import { env } from '#shared/env';
import { logger } from '#shared/logger';

/**
 * AI generation (POST /ai/generate, GET /ai/ping) over the AI port: the prepared (redacted)
 * prompt is answered from the merchant's cache when its use case is cacheable and an answer of
 * the last hour exists, else by one bounded call to the model (core/ai.ts generateWithin), whose
 * error is 502 `upstream_error` and whose time-out is 504 `upstream_timeout`. Nothing is cached
 * or charged when the model fails.
 */
export interface Generation {
  readonly text: string;
  readonly model: string;
  readonly tokensUsed: number;
  readonly cached: boolean;
  readonly latencyMs: number;
  /** Null for a model without a price (core/ai-generation/pricing.ts); 0 for a cached answer (no model was called). */
  readonly costUsd: number | null;
}

export interface GenerationPorts {
  readonly model: AiModel;
  /** @default env.AI_TIMEOUT_MS */
  readonly timeoutMs?: number;
  readonly now?: () => Date;
}

/** GET /ai/ping waits at most this long, or AI_TIMEOUT_MS if that is shorter. */
export const PING_TIMEOUT_MS = 5000;

/** The model the configuration points at: part of the cache key, so a new model never answers from an old one's cache. */
const configuredModel = (): string => (env.AI_PROVIDER === 'bedrock' ? env.BEDROCK_MODEL_ID : LOCAL_MODEL_NAME);

/** The cache key of a prepared prompt: every input that shapes the answer. */
export const promptHash = (prepared: PreparedPrompt): string =>
  createHash('sha256')
    .update(JSON.stringify([configuredModel(), prepared.purpose, prepared.system, prepared.prompt, prepared.maxTokens, prepared.temperature]))
    .digest('hex');

/** One bounded model call; the port's failures as the API's 502 and 504. */
async function callModel(ports: GenerationPorts, prepared: Pick<PreparedPrompt, 'system' | 'prompt' | 'maxTokens' | 'temperature'>, timeoutMs: number) {
  try {
    const answer = await generateWithin(
      ports.model,
      { system: prepared.system, prompt: prepared.prompt, maxTokens: prepared.maxTokens, temperature: prepared.temperature },
      timeoutMs,
    );
    if (answer.text.trim() === '') throw new Error('The model answered with no text');
    return answer;
  } catch (error) {
    if (error instanceof AiTimeoutError) {
      logger.warn('ai model timed out', { timeout_ms: timeoutMs });
      throw new UpstreamTimeoutError(`The AI model did not answer within ${timeoutMs} ms. Retry later.`, { cause: error });
    }
    logger.warn('ai model failed', {
      error: error instanceof Error ? error.name : 'unknown',
      detail: error instanceof Error ? error.message.slice(0, 200) : undefined,
    });
    throw new UpstreamError('The AI model failed to answer. Retry later.', { cause: error });
  }
}

/**
 * Answers a prepared prompt for a merchant.
 *
 * @example await generate('merch_1', preparePrompt({ useCase: 'decline_explanation', system, prompt, maxTokens: 500, temperature: 0.7 }), { model: aiModel });
 */
export async function generate(merchantId: string, prepared: PreparedPrompt, ports: GenerationPorts): Promise<Generation> {
  const now = ports.now ?? (() => new Date());
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const hash = prepared.cacheable ? promptHash(prepared) : undefined;
  if (hash !== undefined) {
    const hit = await getCachedAnswer(merchantId, hash, now());
    if (hit !== undefined) return { text: hit.text, model: hit.model, tokensUsed: hit.tokens_used, cached: true, latencyMs: elapsed(), costUsd: 0 };
  }
  const answer = await callModel(ports, prepared, ports.timeoutMs ?? Number(env.AI_TIMEOUT_MS));
  const latencyMs = elapsed();
  if (hash !== undefined) {
    const at = now();
    try {
      await putCachedAnswer(merchantId, {
        prompt_hash: hash,
        use_case: prepared.purpose,
        text: answer.text,
        model: answer.model,
        tokens_used: answer.tokensUsed,
        ...(answer.inputTokens === undefined ? {} : { input_tokens: answer.inputTokens }),
        ...(answer.outputTokens === undefined ? {} : { output_tokens: answer.outputTokens }),
        created_at: at.toISOString(),
        expires_at: Math.floor(at.getTime() / 1000) + CACHE_TTL_SECONDS,
      });
    } catch (error) {
      // The answer is good; a cache that cannot be written costs a later call, not this one.
      logger.warn('ai answer not cached', { merchant_id: merchantId, error: error instanceof Error ? error.name : 'unknown' });
    }
  }
  return {
    text: answer.text,
    model: answer.model,
    tokensUsed: answer.tokensUsed,
    cached: false,
    latencyMs,
    costUsd: costUsd(answer.model, {
      total: answer.tokensUsed,
      ...(answer.inputTokens === undefined ? {} : { input: answer.inputTokens }),
      ...(answer.outputTokens === undefined ? {} : { output: answer.outputTokens }),
    }),
  };
}

/** GET /ai/ping: a tiny real call through the port. */
export async function pingModel(ports: GenerationPorts): Promise<{ model: string; response: string; latencyMs: number }> {
  const started = performance.now();
  const timeoutMs = Math.min(PING_TIMEOUT_MS, ports.timeoutMs ?? Number(env.AI_TIMEOUT_MS));
  const answer = await callModel(
    ports,
    { system: 'You are a health check. Answer with the single word: pong', prompt: 'ping', maxTokens: 10, temperature: 0 },
    timeoutMs,
  );
  return { model: answer.model, response: answer.text, latencyMs: Math.round(performance.now() - started) };
}
