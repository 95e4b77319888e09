import { createGroupHandler } from '../group-handler';

/** The scoring Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler('scoring', {});
