import { type RouteDef, PUBLIC, WRITE, v1 } from '#api/route-rows';

/** The `ai` group's rows of the route table: its Lambda serves exactly these. */
export const aiRoutes: readonly RouteDef[] = [
  v1('ai', 'GET', '/ai/ping', 'pingAi', [], 'AI model liveness', PUBLIC),
  v1('ai', 'POST', '/ai/generate', 'generateText', WRITE, 'AI text generation'),
];
