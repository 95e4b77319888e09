import { createGroupHandler } from '../group-handler';
import { getRecovery } from './get-recovery';
import { listRecoveries } from './list-recoveries';
import { triggerDunning } from './trigger-dunning';

/** The recoveries Lambda: GET /recoveries, GET /recoveries/{id}, POST /recoveries/{id}/dunning. */
export const handler = createGroupHandler('recoveries', { listRecoveries, getRecovery, triggerDunning });
