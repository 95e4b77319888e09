import { createGroupHandler } from '#api/group-handler';
import { edgeInternalRoutes } from './routes';
import { updateScoreLookup } from './update-score-lookup';

/** The edge-internal Lambda: internal routes behind the shared cron secret; rows not built yet answer 501. */
export const handler = createGroupHandler(edgeInternalRoutes, { updateScoreLookup });
