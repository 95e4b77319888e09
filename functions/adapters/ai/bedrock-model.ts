import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type { AiModel, AiRequest, AiResponse } from '#core/ai';

/**
 * The AI adapter on AWS: one Converse call to an Amazon Bedrock model (any model Converse
 * supports; BEDROCK_MODEL_ID picks it). Kept this small on purpose: it cannot be exercised
 * without an AWS account with model access, so tests run it against a loopback fake of the Converse
 * HTTP API (test/fakes/bedrock-converse-api.ts, `BEDROCK_ENDPOINT`). Callers bound every call
 * (core/ai.ts generateWithin): scoring falls back, generation answers 502/504. The SDK is loaded on the
 * first call, not at cold start: the rules and lookup tiers of scoring never need it.
 */
export function createBedrockModel(modelId: string, options: { readonly client?: BedrockRuntimeClient; readonly endpoint?: string } = {}): AiModel {
  let sdk: Promise<typeof import('@aws-sdk/client-bedrock-runtime')> | undefined;
  let client: BedrockRuntimeClient | undefined = options.client;
  return {
    async generate(request: AiRequest): Promise<AiResponse> {
      sdk ??= import('@aws-sdk/client-bedrock-runtime');
      const { BedrockRuntimeClient, ConverseCommand } = await sdk;
      client ??= new BedrockRuntimeClient(options.endpoint === undefined ? {} : { endpoint: options.endpoint });
      const output = await client.send(
        new ConverseCommand({
          modelId,
          system: [{ text: request.system }],
          messages: [{ role: 'user', content: [{ text: request.prompt }] }],
          // Converse takes 0-1 for most models; the API's 0-2 is clamped.
          inferenceConfig: { maxTokens: request.maxTokens, temperature: Math.min(1, Math.max(0, request.temperature)) },
        }),
        request.signal === undefined ? {} : { abortSignal: request.signal },
      );
      const text = (output.output?.message?.content ?? []).map((block) => block.text ?? '').join('');
      const usage = output.usage;
      return {
        text,
        model: modelId,
        tokensUsed: usage?.totalTokens ?? 0,
        ...(usage?.inputTokens === undefined || usage.outputTokens === undefined ? {} : { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }),
      };
    },
  };
}
