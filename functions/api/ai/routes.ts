import { type RouteDef, PUBLIC, WRITE, v1 } from '#api/route-rows';
import { generateTextSchemas, pingAiSchemas } from './schemas';

/** The `ai` group's rows of the route table: its Lambda serves exactly these. */
export const aiRoutes: readonly RouteDef[] = [
  v1('ai', 'GET', '/ai/ping', 'pingAi', [], 'AI model liveness', { ...PUBLIC, schemas: pingAiSchemas }),
  v1('ai', 'POST', '/ai/generate', 'generateText', WRITE, 'AI text generation', { schemas: generateTextSchemas }),
];
