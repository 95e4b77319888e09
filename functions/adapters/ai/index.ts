import type { AiModel } from '#core/ai';
import { env } from '#shared/env';
import { createBedrockModel } from './bedrock-model';
import { localModel } from './local-model';

export { LOCAL_MODEL_NAME } from './local-model';

/** The adapter for a provider name (`AI_PROVIDER`): `local` (the default) or `bedrock` (set by CDK on AWS). */
export function aiModelFor(provider: 'local' | 'bedrock', modelId: string = env.BEDROCK_MODEL_ID): AiModel {
  return provider === 'bedrock' ? createBedrockModel(modelId, env.BEDROCK_ENDPOINT === undefined ? {} : { endpoint: env.BEDROCK_ENDPOINT }) : localModel;
}

/** The AI model in use, chosen once per process from the environment (DESIGN §2: configuration picks the adapter). */
export const aiModel: AiModel = aiModelFor(env.AI_PROVIDER);
