import { createGroupHandler } from '#api/group-handler';
import { cronSecretAuth } from '#api/pipeline/cron-secret';
import { invalidateCache } from './invalidate-cache';
import { edgeInternalRoutes } from './routes';
import { updateScoreLookup } from './update-score-lookup';

/** The edge-internal Lambda: internal routes behind the shared cron secret. */
export const handler = createGroupHandler(edgeInternalRoutes, { invalidateCache, updateScoreLookup }, cronSecretAuth);
