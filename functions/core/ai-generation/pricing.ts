import { LOCAL_MODEL_NAME } from '#core/ai';

/**
 * What a generation cost (B's `cost_usd`): tokens times the model's on-demand price, in US dollars
 * per million tokens, input and output priced apart. Prices are Amazon Bedrock's on-demand list
 * prices in us-east-1 as published (https://aws.amazon.com/bedrock/pricing/) when this table was
 * written; docs/ai.md repeats it. A cross-region inference profile (`us.`, `eu.`, `apac.` before
 * the model id) costs what its model does. The local model costs nothing. A model missing from the
 * table has no known cost: `cost_usd` is null, never a guess.
 */
export interface ModelPrice {
  /** USD per 1,000,000 input tokens. */
  readonly inputPerMillion: number;
  /** USD per 1,000,000 output tokens. */
  readonly outputPerMillion: number;
}

export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  [LOCAL_MODEL_NAME]: { inputPerMillion: 0, outputPerMillion: 0 },
  'anthropic.claude-3-haiku-20240307-v1:0': { inputPerMillion: 0.25, outputPerMillion: 1.25 },
  'anthropic.claude-3-5-haiku-20241022-v1:0': { inputPerMillion: 0.8, outputPerMillion: 4 },
  'anthropic.claude-3-sonnet-20240229-v1:0': { inputPerMillion: 3, outputPerMillion: 15 },
  'anthropic.claude-3-5-sonnet-20240620-v1:0': { inputPerMillion: 3, outputPerMillion: 15 },
  'anthropic.claude-3-5-sonnet-20241022-v2:0': { inputPerMillion: 3, outputPerMillion: 15 },
  'amazon.nova-micro-v1:0': { inputPerMillion: 0.035, outputPerMillion: 0.14 },
  'amazon.nova-lite-v1:0': { inputPerMillion: 0.06, outputPerMillion: 0.24 },
  'amazon.nova-pro-v1:0': { inputPerMillion: 0.8, outputPerMillion: 3.2 },
};

const INFERENCE_PROFILE_PREFIX = /^(?:us|eu|apac|us-gov)\./;

export const priceOf = (modelId: string): ModelPrice | undefined => MODEL_PRICES[modelId.replace(INFERENCE_PROFILE_PREFIX, '')];

/**
 * The cost in USD, rounded to a millionth of a dollar, or null for a model without a price. When
 * the model reported only a total (no input/output split), every token is priced as output: an
 * upper bound rather than an understatement.
 */
export function costUsd(modelId: string, tokens: { readonly input?: number; readonly output?: number; readonly total: number }): number | null {
  const price = priceOf(modelId);
  if (price === undefined) return null;
  const raw =
    tokens.input === undefined || tokens.output === undefined
      ? tokens.total * price.outputPerMillion
      : tokens.input * price.inputPerMillion + tokens.output * price.outputPerMillion;
  return Math.round(raw) / 1_000_000;
}
