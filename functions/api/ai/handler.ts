import { createGroupHandler } from '#api/group-handler';
import { publicAuth } from '#api/pipeline/authenticator';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { generateText } from './generate-text';
import { pingAi } from './ping-ai';
import { aiRoutes } from './routes';

/** The ai Lambda: GET /ai/ping and POST /ai/generate through the AI port (Bedrock on AWS, the local deterministic model elsewhere). */
export const handler = createGroupHandler(aiRoutes, { pingAi, generateText }, { ...publicAuth, ...apiKeyAuth });
