import { createGroupHandler } from '#api/group-handler';
import { publicAuth } from '#api/pipeline/authenticator';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { completeCrmAOauth, completeCrmBOauth } from './complete-crm-oauth';
import { crmRoutes } from './routes';
import { syncCrmA, syncCrmB } from './sync-crm';

/** The crm Lambda: CRM installation callbacks and syncs. */
export const handler = createGroupHandler(crmRoutes, { completeCrmAOauth, completeCrmBOauth, syncCrmA, syncCrmB }, { ...publicAuth, ...apiKeyAuth });
