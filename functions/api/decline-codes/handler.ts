import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { declineCodesRoutes } from './routes';
import { getDeclineCode } from './get-decline-code';
import { listDeclineCategories } from './list-decline-categories';
import { listDeclineCodes } from './list-decline-codes';

/** The decline-codes Lambda: the catalogue list (cursor paged), the category taxonomy and one code with its provider variations. */
export const handler = createGroupHandler(declineCodesRoutes, { listDeclineCodes, listDeclineCategories, getDeclineCode }, apiKeyAuth);
