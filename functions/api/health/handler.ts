import { createGroupHandler } from '../group-handler';
import { getHealth } from './get-health';

/** The health Lambda, deployed once per REST API: GET /health. */
export const handler = createGroupHandler('health', { getHealth });
