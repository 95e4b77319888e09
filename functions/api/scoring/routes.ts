import { type RouteDef, WRITE, v1 } from '#api/route-rows';
import { scoreRetrySchemas } from './schemas';

/** The `scoring` group's rows of the route table: its Lambda serves exactly these. */
export const scoringRoutes: readonly RouteDef[] = [
  v1('scoring', 'POST', '/scoring/retry', 'scoreRetry', WRITE, 'Score a retry', { schemas: scoreRetrySchemas }),
];
