import { createGroupHandler } from '../group-handler';

/** The decline-codes Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler('decline-codes', {});
