/**
 * The AI port on AWS (functions/adapters/ai): the API groups whose registry entry says `ai`
 * (functions/api/groups.ts) get `AI_PROVIDER=bedrock`, the model id, and `bedrock:InvokeModel` on
 * that one foundation model. Every other function keeps the local deterministic adapter's default
 * and no Bedrock permission.
 */
export const bedrockModel = {
  /** Converse-capable, fast and cheap: the enhanced scoring tier asks for one short JSON answer, AI generation for short texts (docs/ai.md prices it). */
  modelId: 'anthropic.claude-3-haiku-20240307-v1:0',
} as const satisfies { readonly modelId: string };
