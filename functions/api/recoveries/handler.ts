import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { recoveriesRoutes } from './routes';
import { getRecovery } from './get-recovery';
import { listRecoveries } from './list-recoveries';
import { triggerDunning } from './trigger-dunning';

/** The recoveries Lambda: GET /recoveries, GET /recoveries/{id}, POST /recoveries/{id}/dunning. */
export const handler = createGroupHandler(recoveriesRoutes, { listRecoveries, getRecovery, triggerDunning }, apiKeyAuth);
