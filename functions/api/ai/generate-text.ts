import type { z } from 'zod/mini';
import { type GenerationRequest, type PreparedPrompt, preparePrompt, UnknownContextKeyError } from '#core/ai-generation/prompts';
import { RateLimitExceededError, ValidationError } from '#core/errors';
import { aiModel } from '#adapters/ai/index';
import { generate } from '#services/ai-generation';
import { limitAiGeneration, rateLimitHeaders } from '#api/pipeline/rate-limit';
import { envelope } from '#api/pipeline/responses';
import { logger } from '#shared/logger';
import { defineOperation } from '#api/operation';
import { type GenerateTextBody, generateTextSchemas, MAX_TOKENS, TEMPERATURE } from './schemas';
import { generationView } from './views';

type Body = z.output<typeof GenerateTextBody>;

/** The validated body as a request of either form (A wins: `use_case` makes it A). */
function requestOf(body: Body): GenerationRequest {
  const common = {
    maxTokens: body.max_tokens ?? MAX_TOKENS.default,
    temperature: body.temperature ?? TEMPERATURE.default,
    ...(body.language === undefined ? {} : { language: body.language }),
  };
  if (body.use_case !== undefined) {
    return { ...common, useCase: body.use_case, system: body.system_prompt as string, prompt: body.user_prompt as string };
  }
  return { ...common, template: body.prompt_template as NonNullable<Body['prompt_template']>, context: body.context ?? {} };
}

/** The prompt of the body; a context key the template does not read (the schema refuses it first) is 422 naming it. */
function promptOf(body: Body): PreparedPrompt {
  try {
    return preparePrompt(requestOf(body));
  } catch (error) {
    if (error instanceof UnknownContextKeyError) throw new ValidationError(error.message, { param: `context.${error.key}` });
    throw error;
  }
}

/** The AI limit's own headers (`X-AI-RateLimit-*`), beside the API key's `X-RateLimit-*`. */
const aiLimitHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.replace('X-RateLimit-', 'X-AI-RateLimit-'), value]));

/** Counts the call against the merchant's AI limit: its headers, or 429 carrying them (and the key's own, from the pipeline). */
async function takeAiCall(merchantId: string): Promise<Record<string, string>> {
  try {
    return aiLimitHeaders(rateLimitHeaders(await limitAiGeneration(merchantId)));
  } catch (error) {
    if (!(error instanceof RateLimitExceededError)) throw error;
    throw new RateLimitExceededError(error.message, error.retryAfterSeconds, { headers: aiLimitHeaders(error.headers) });
  }
}

/**
 * POST /api/v1/ai/generate: text from the AI port, in A's form (use_case + prompts, answered
 * unwrapped) or B's (prompt_template + context, answered in the envelope). Every prompt is
 * redacted first (core/ai-generation/redact.ts); each call counts against the merchant's AI limit
 * (100 a minute, apart from the API limit; 429 with `Retry-After`), cached answers included;
 * decline_explanation and retry_scoring answers are cached an hour. The model's error is 502, its
 * time-out (AI_TIMEOUT_MS) 504.
 */
export const generateText = defineOperation({ auth: 'api_key', schemas: generateTextSchemas }, async ({ body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const prepared = promptOf(body);
  const headers = await takeAiCall(merchantId);
  const { cards, cardFields, emails, names } = prepared.removed;
  if (cards + cardFields + emails + names > 0) {
    logger.info('ai prompt redacted', { request_id: requestId, merchant_id: merchantId, purpose: prepared.purpose, ...prepared.removed });
  }
  const generation = await generate(merchantId, prepared, { model: aiModel });
  const view = generationView(generation);
  return { body: body.use_case !== undefined ? view : envelope(view, requestId, merchantId), headers };
});
