import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { embedRecoveryEvent } from './embed-event';
import { findSimilarRecoveriesOperation } from './find-similar';
import { recommendStrategy } from './recommend-strategy';
import { vectorsRoutes } from './routes';

/** The vectors Lambda: embed a recovery, find similar ones, recommend a strategy. */
export const handler = createGroupHandler(
  vectorsRoutes,
  { embedRecoveryEvent, findSimilarRecoveries: findSimilarRecoveriesOperation, recommendStrategy },
  apiKeyAuth,
);
