import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { statusRoutes } from './routes';
import { getStatus } from './get-status';

/** The status Lambda: GET /api/v1/status. */
export const handler = createGroupHandler(statusRoutes, { getStatus }, apiKeyAuth);
