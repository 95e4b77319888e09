import { createGroupHandler } from '#api/group-handler';
import { completeCrmAOauth, completeCrmBOauth } from './complete-crm-oauth';
import { crmRoutes } from './routes';
import { syncCrmA, syncCrmB } from './sync-crm';

/** The crm Lambda: CRM installation callbacks and syncs. */
export const handler = createGroupHandler(crmRoutes, { completeCrmAOauth, completeCrmBOauth, syncCrmA, syncCrmB });
