import { createGroupHandler } from '../group-handler';

/** The crm Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler('crm', {});
