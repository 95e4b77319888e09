import { formatMoney, isCurrency } from '#core/money';
import { type Redaction, type RedactionOptions, redactPrompt } from './redact';

/**
 * The two request forms of POST /ai/generate (spec, "AI, scoring, vectors"), as prompts:
 * - A's use cases: the merchant writes the system and user prompts; the service adds its own
 *   rules in front of the system prompt (SERVICE_RULES) and the answer's language.
 * - B's templates: the prompt text is ours, filled from `context`, whose keys are checked against
 *   the template's allowlist (anything else is refused, so a context cannot smuggle instructions
 *   in under a key the template never reads).
 * Each says whether it needs the customer's name (personalised copy does) or email address (none
 * does); what is not needed is masked by redactPrompt.
 */
export const AI_USE_CASES = [
  'email_personalization',
  'sms_personalization',
  'whatsapp_personalization',
  'decline_explanation',
  'retry_scoring',
  'campaign_copy',
  'weekly_digest',
  'multi_language_dunning',
] as const;
export type AiUseCase = (typeof AI_USE_CASES)[number];

export const PROMPT_TEMPLATES = ['retry_explanation', 'dunning_email', 'win_back', 'report_summary'] as const;
export type PromptTemplate = (typeof PROMPT_TEMPLATES)[number];

/** Spec, limits: "decline_explanation and retry_scoring AI results 1 hour"; nothing else is cached. */
export const CACHED_USE_CASES: ReadonlySet<AiUseCase> = new Set(['decline_explanation', 'retry_scoring']);
export const CACHE_TTL_SECONDS = 3600;

/** Use cases and templates that address the customer by name; no use case needs the email address. */
const NEEDS_NAME: ReadonlySet<AiUseCase | PromptTemplate> = new Set([
  'email_personalization',
  'sms_personalization',
  'whatsapp_personalization',
  'multi_language_dunning',
  'dunning_email',
  'win_back',
]);

export const redactionFor = (useCase: AiUseCase | PromptTemplate): RedactionOptions => ({ keepNames: NEEDS_NAME.has(useCase), keepEmails: false });

/** A language name or tag (`fr`, `pt-BR`, `French`): letters, spaces and hyphens, so that it cannot carry instructions into the system prompt. */
export const LANGUAGE_PATTERN = /^[A-Za-z][A-Za-z -]{0,34}$/;

/** Put before every system prompt, of both forms. */
export const SERVICE_RULES =
  'You write for a payment recovery service. Never ask for, invent or repeat card numbers, security codes or passwords. Placeholders in square brackets stand for data withheld from you: keep them as they are or leave them out.';

export const systemPromptOf = (ownSystem: string, language: string | undefined): string =>
  [SERVICE_RULES, ownSystem.trim(), language === undefined ? '' : `Answer in this language: ${language}.`].filter((part) => part !== '').join('\n\n');

type ContextValue = string | number | boolean | null;
export type TemplateContext = Readonly<Record<string, ContextValue>>;

interface TemplateDefinition {
  readonly system: string;
  readonly task: string;
  /** The context keys the template reads, and the label each is given in the prompt. */
  readonly keys: Readonly<Record<string, string>>;
}

const COMMON_KEYS = { merchant_name: 'Merchant', currency: 'Currency', language: 'Language' } as const;

const TEMPLATES: Readonly<Record<PromptTemplate, TemplateDefinition>> = {
  retry_explanation: {
    system: 'You explain to a merchant, in two or three plain sentences, why a payment failed and why the next retry is planned when it is.',
    task: 'Explain this failed payment and its retry plan.',
    keys: {
      ...COMMON_KEYS,
      decline_code: 'Decline code',
      decline_category: 'Decline category',
      decline_reason: 'Decline reason',
      amount_cents: 'Amount',
      provider: 'Payment provider',
      card_brand: 'Card brand',
      retry_count: 'Retries so far',
      next_retry_at: 'Next retry',
      delay_hours: 'Planned wait (hours)',
    },
  },
  dunning_email: {
    system:
      'You write a short, friendly, non-threatening email asking a customer to update their payment method. No subject line unless asked; no card details.',
    task: 'Write the body of the dunning email.',
    keys: {
      ...COMMON_KEYS,
      customer_name: 'Customer name',
      product_name: 'Product',
      amount_cents: 'Amount due',
      update_payment_url: 'Update-payment link',
      days_until_cancellation: 'Days until the subscription is cancelled',
      attempt_number: 'Reminder number',
      tone: 'Tone',
    },
  },
  win_back: {
    system: 'You write a short win-back message inviting a former customer back, honest about the offer and without pressure.',
    task: 'Write the win-back message.',
    keys: {
      ...COMMON_KEYS,
      customer_name: 'Customer name',
      product_name: 'Product',
      offer: 'Offer',
      discount_percent: 'Discount (%)',
      months_subscribed: 'Months subscribed before leaving',
      cancellation_reason: 'Reason given for leaving',
      tone: 'Tone',
    },
  },
  report_summary: {
    system: "You summarise a merchant's payment recovery figures in three or four plain sentences, naming the biggest change.",
    task: 'Summarise these recovery figures.',
    keys: {
      ...COMMON_KEYS,
      period: 'Period',
      payments_failed: 'Payments failed',
      payments_recovered: 'Payments recovered',
      recovery_rate: 'Recovery rate',
      recovered_amount_cents: 'Amount recovered',
      at_risk_amount_cents: 'Amount still at risk',
      top_decline_codes: 'Top decline codes',
    },
  },
};

/** The context keys a template accepts (documented in OpenAPI and docs/ai.md). */
export const templateKeys = (template: PromptTemplate): readonly string[] => Object.keys(TEMPLATES[template].keys);

/** A context key the template does not read. */
export class UnknownContextKeyError extends Error {
  constructor(
    readonly key: string,
    template: PromptTemplate,
  ) {
    super(`context.${key} is not read by the ${template} template; it reads ${templateKeys(template).join(', ')}.`);
    this.name = 'UnknownContextKeyError';
  }
}

const renderValue = (key: string, value: Exclude<ContextValue, null>, currency: unknown): string => {
  if (key.endsWith('_cents') && typeof value === 'number' && Number.isInteger(value)) {
    return typeof currency === 'string' && isCurrency(currency.toLowerCase())
      ? formatMoney(value, currency.toLowerCase())
      : `${value} (smallest currency unit)`;
  }
  return String(value);
};

/**
 * The system and user prompts of a B template filled from `context`, one labelled line per key
 * given (null values are left out), in the template's order. Throws UnknownContextKeyError for a
 * key the template does not read.
 */
export function renderTemplate(template: PromptTemplate, context: TemplateContext): { system: string; prompt: string; language?: string } {
  const definition = TEMPLATES[template];
  for (const key of Object.keys(context)) if (!Object.hasOwn(definition.keys, key)) throw new UnknownContextKeyError(key, template);
  const lines: string[] = [];
  for (const [key, label] of Object.entries(definition.keys)) {
    const value = Object.hasOwn(context, key) ? context[key] : undefined;
    if (value === undefined || value === null || key === 'language') continue;
    lines.push(`${label}: ${renderValue(key, value, context.currency)}`);
  }
  const language = typeof context.language === 'string' && LANGUAGE_PATTERN.test(context.language.trim()) ? context.language.trim() : undefined;
  return {
    system: definition.system,
    prompt: [definition.task, '', ...lines].join('\n'),
    ...(language === undefined ? {} : { language }),
  };
}

/** One request of POST /ai/generate in either form, validated. */
export type GenerationRequest =
  | {
      readonly useCase: AiUseCase;
      readonly system: string;
      readonly prompt: string;
      readonly maxTokens: number;
      readonly temperature: number;
      readonly language?: string;
    }
  | {
      readonly template: PromptTemplate;
      readonly context: TemplateContext;
      readonly maxTokens: number;
      readonly temperature: number;
      readonly language?: string;
    };

/** What is sent to the model: redacted prompts, and whether the answer may be cached. */
export interface PreparedPrompt {
  /** The use case or template. */
  readonly purpose: AiUseCase | PromptTemplate;
  readonly system: string;
  readonly prompt: string;
  readonly maxTokens: number;
  readonly temperature: number;
  readonly cacheable: boolean;
  readonly removed: Redaction['removed'];
}

/**
 * The prompts of a request, with the service's rules and the language added and everything the
 * purpose does not need redacted (redact.ts). Throws UnknownContextKeyError for B's context.
 */
export function preparePrompt(request: GenerationRequest): PreparedPrompt {
  const purpose = 'useCase' in request ? request.useCase : request.template;
  const own = 'useCase' in request ? { system: request.system, prompt: request.prompt } : renderTemplate(request.template, request.context);
  const language = request.language ?? ('language' in own ? own.language : undefined);
  const options = redactionFor(purpose);
  const system = redactPrompt(systemPromptOf(own.system, language), options);
  const prompt = redactPrompt(own.prompt, options);
  const removed = {
    cards: system.removed.cards + prompt.removed.cards,
    cardFields: system.removed.cardFields + prompt.removed.cardFields,
    emails: system.removed.emails + prompt.removed.emails,
    names: system.removed.names + prompt.removed.names,
  };
  return {
    purpose,
    system: system.text,
    prompt: prompt.text,
    maxTokens: request.maxTokens,
    temperature: request.temperature,
    cacheable: 'useCase' in request && CACHED_USE_CASES.has(request.useCase),
    removed,
  };
}
