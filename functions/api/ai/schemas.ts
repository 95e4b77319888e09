import * as z from '#shared/zod';
import { AI_USE_CASES, CACHED_USE_CASES, LANGUAGE_PATTERN, PROMPT_TEMPLATES, templateKeys } from '#core/ai-generation/prompts';
import { ResponseMeta } from '#api/envelope-schemas';

/** Spec, limits: "AI max_tokens (A) 50-4096, default 500; temperature 0-2, default 0.7" (B's max_tokens is held to the same range). */
export const MAX_TOKENS = { min: 50, max: 4096, default: 500 } as const;
export const TEMPERATURE = { min: 0, max: 2, default: 0.7 } as const;
const MAX_PROMPT_LENGTH = 20_000;
const MAX_CONTEXT_STRING_LENGTH = 2000;

const Prompt = (description: string) =>
  z
    .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_PROMPT_LENGTH)))
    .clone()
    .register(z.globalRegistry, { description });

const LANGUAGE_HINT = 'a language name or tag such as fr, pt-BR or French';

/** A language name or tag (`fr`, `pt-BR`, `French`): letters, spaces and hyphens, so it cannot carry instructions. */
const Language = z
  .string()
  .check(z.trim(), z.regex(LANGUAGE_PATTERN, LANGUAGE_HINT))
  .clone()
  .register(z.globalRegistry, { description: 'Language of the answer: a tag (`fr`, `pt-BR`) or a name (`French`).' });

const ContextValue = z.union([z.string().check(z.maxLength(MAX_CONTEXT_STRING_LENGTH)), z.number(), z.boolean(), z.null()]);

const templateKeyList = PROMPT_TEMPLATES.map((template) => `${template}: ${templateKeys(template).join(', ')}`).join('; ');

/**
 * Both forms of the spec in one body (DESIGN §1). A is told by `use_case` (then system_prompt and
 * user_prompt are required); B by `prompt_template` without `use_case` (then context is required,
 * and each of its keys must be one the template reads). A wins where they collide: a body with
 * both is answered as A. max_tokens and temperature apply to both.
 */
export const GenerateTextBody = z
  .object({
    use_case: z
      .optional(z.enum(AI_USE_CASES))
      .clone()
      .register(z.globalRegistry, {
        description: `A: what the text is for. ${[...CACHED_USE_CASES].join(' and ')} answers are cached for an hour per merchant and prompt.`,
      }),
    system_prompt: Prompt('A: instructions for the model (the service puts its own rules first).'),
    user_prompt: Prompt('A: the request itself.'),
    max_tokens: z
      .optional(z.number().check(z.int(), z.gte(MAX_TOKENS.min), z.lte(MAX_TOKENS.max)))
      .clone()
      .register(z.globalRegistry, { default: MAX_TOKENS.default, description: 'Upper bound of the answer, 50-4096 tokens; default 500.' }),
    temperature: z
      .optional(z.number().check(z.gte(TEMPERATURE.min), z.lte(TEMPERATURE.max)))
      .clone()
      .register(z.globalRegistry, { default: TEMPERATURE.default, description: '0 (most deterministic) to 2; default 0.7.' }),
    language: z.optional(Language),
    prompt_template: z
      .optional(z.enum(PROMPT_TEMPLATES))
      .clone()
      .register(z.globalRegistry, { description: 'B: one of the service’s own prompts, filled from `context`.' }),
    context: z
      .optional(z.record(z.string().check(z.minLength(1), z.maxLength(64)), ContextValue))
      .clone()
      .register(z.globalRegistry, {
        description: `B: values the template reads (strings of at most ${MAX_CONTEXT_STRING_LENGTH} characters, numbers, booleans; \`*_cents\` amounts are formatted in \`currency\`). Keys per template: ${templateKeyList}. Any other key is refused (422).`,
      }),
  })
  .check(
    z.superRefine((body, ctx) => {
      const missing = (field: string): void => ctx.addIssue({ code: 'invalid_type', expected: 'string', path: [field], message: 'Required' });
      if (body.use_case !== undefined) {
        if (body.system_prompt === undefined) missing('system_prompt');
        if (body.user_prompt === undefined) missing('user_prompt');
        return;
      }
      if (body.prompt_template === undefined) return missing('use_case');
      if (body.context === undefined) return missing('context');
      const allowed = templateKeys(body.prompt_template);
      for (const key of Object.keys(body.context)) {
        if (!allowed.includes(key)) {
          ctx.addIssue({
            code: 'custom',
            path: ['context', key],
            message: `not read by the ${body.prompt_template} template (it reads ${allowed.join(', ')})`,
          });
        }
      }
      const language = body.context.language;
      if (language !== undefined && language !== null && !(typeof language === 'string' && LANGUAGE_PATTERN.test(language.trim()))) {
        ctx.addIssue({ code: 'custom', path: ['context', 'language'], message: LANGUAGE_HINT });
      }
    }),
  )
  .clone()
  .register(z.globalRegistry, { anyOf: [{ required: ['use_case', 'system_prompt', 'user_prompt'] }, { required: ['prompt_template', 'context'] }] });

const generationFields = {
  text: z.string(),
  model: z.string().clone().register(z.globalRegistry, { description: 'The model that answered; `local-deterministic-model` is the local stand-in, no LLM.' }),
  tokens_used: z
    .number()
    .check(z.int())
    .clone()
    .register(z.globalRegistry, { description: 'Input and output tokens (of the original call, for a cached answer).' }),
  cached: z.boolean().clone().register(z.globalRegistry, { description: 'True when answered from the one-hour cache (no model call).' }),
  latency_ms: z.number().check(z.int()),
  cost_usd: z.nullable(z.number()).clone().register(z.globalRegistry, {
    description: 'USD, from tokens and the price table in docs/ai.md; 0 for a cached answer; null for a model without a price.',
  }),
};

/** A: unwrapped (spec: "A AI generation ... responses are not wrapped in data"). */
export const GenerateTextResponseA = z.object(generationFields).clone().register(z.globalRegistry, { id: 'AiGeneration' });

/** B: in the envelope. */
export const GenerateTextResponseB = z.object({ data: z.object(generationFields), meta: ResponseMeta });

/** 502: the model failed; 504: it did not answer within AI_TIMEOUT_MS (20 s on AWS). */
export const generateTextSchemas = {
  body: GenerateTextBody,
  errorStatuses: [502, 504],
  responses: { 200: z.union([GenerateTextResponseA, GenerateTextResponseB]) },
} as const;

export const PingAiResponse = z
  .object({
    status: z.literal('ok'),
    model: z.string(),
    response: z.string().clone().register(z.globalRegistry, { description: "The model's answer to a one-word prompt." }),
    latency_ms: z.number().check(z.int()),
  })
  .clone()
  .register(z.globalRegistry, { id: 'AiPing' });

/** 429: 30 pings a minute per client address; 502/504 as for generation (5 s bound). */
export const pingAiSchemas = { errorStatuses: [429, 502, 504], responses: { 200: PingAiResponse } } as const;
