import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { scoringRoutes } from './routes';
import { scoreRetry } from './score-retry';

/** The scoring Lambda: POST /scoring/retry with its three tiers (rules, enhanced through the AI port, lgbm from the lookup table). */
export const handler = createGroupHandler(scoringRoutes, { scoreRetry }, apiKeyAuth);
