import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { activateCampaign } from './activate-campaign';
import { archiveCampaign } from './archive-campaign';
import { checkCampaignOverlap } from './check-campaign-overlap';
import { createCampaign } from './create-campaign';
import { createCampaignFromTemplate } from './create-campaign-from-template';
import { getCampaign } from './get-campaign';
import { listCampaignTemplates } from './list-campaign-templates';
import { listCampaigns } from './list-campaigns';
import { pauseCampaign } from './pause-campaign';
import { campaignsRoutes } from './routes';
import { simulateCampaign } from './simulate-campaign';
import { updateCampaign } from './update-campaign';

/** The campaigns Lambda: its 11 rows of the route table. */
export const handler = createGroupHandler(
  campaignsRoutes,
  {
    listCampaigns,
    getCampaign,
    createCampaign,
    updateCampaign,
    activateCampaign,
    pauseCampaign,
    archiveCampaign,
    listCampaignTemplates,
    createCampaignFromTemplate,
    checkCampaignOverlap,
    simulateCampaign,
  },
  apiKeyAuth,
);
