import { createGroupHandler } from '#api/group-handler';
import { publicAuth } from '#api/pipeline/authenticator';
import { healthRoutes } from './routes';
import { getHealth } from './get-health';

/** The health Lambda, deployed once per REST API: GET /health. */
export const handler = createGroupHandler(healthRoutes, { getHealth }, publicAuth);
