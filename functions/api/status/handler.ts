import { createGroupHandler } from '../group-handler';
import { getStatus } from './get-status';

/** The status Lambda: GET /api/v1/status. */
export const handler = createGroupHandler('status', { getStatus });
