import { type RouteDef, v1 } from '#api/route-rows';
import {
  activateCampaignSchemas,
  archiveCampaignSchemas,
  checkCampaignOverlapSchemas,
  createCampaignFromTemplateSchemas,
  createCampaignSchemas,
  getCampaignSchemas,
  listCampaignsSchemas,
  listCampaignTemplatesSchemas,
  pauseCampaignSchemas,
  simulateCampaignSchemas,
  updateCampaignSchemas,
} from './schemas';

const READ = ['read', 'read:campaigns'] as const;
const WRITE = ['write', 'write:campaigns'] as const;

/** The `campaigns` group's rows of the route table: its Lambda serves exactly these. */
export const campaignsRoutes: readonly RouteDef[] = [
  v1('campaigns', 'GET', '/campaigns', 'listCampaigns', [...READ], 'List campaigns', { schemas: listCampaignsSchemas }),
  v1('campaigns', 'GET', '/campaigns/templates', 'listCampaignTemplates', [...READ], 'Pre-built campaign templates', { schemas: listCampaignTemplatesSchemas }),
  v1('campaigns', 'POST', '/campaigns/from-template', 'createCampaignFromTemplate', [...WRITE], 'Create a campaign from a template', {
    schemas: createCampaignFromTemplateSchemas,
  }),
  v1('campaigns', 'POST', '/campaigns/overlap', 'checkCampaignOverlap', [...READ], 'Check overlap with active campaigns', {
    schemas: checkCampaignOverlapSchemas,
  }),
  v1('campaigns', 'POST', '/campaigns/simulate', 'simulateCampaign', [...READ], 'Simulate a campaign over past payments', { schemas: simulateCampaignSchemas }),
  v1('campaigns', 'GET', '/campaigns/{id}', 'getCampaign', [...READ], 'One campaign with its steps', { schemas: getCampaignSchemas }),
  v1('campaigns', 'POST', '/campaigns', 'createCampaign', [...WRITE], 'Create a campaign (draft)', { schemas: createCampaignSchemas }),
  v1('campaigns', 'PUT', '/campaigns/{id}', 'updateCampaign', [...WRITE], 'Update a draft or paused campaign', { schemas: updateCampaignSchemas }),
  v1('campaigns', 'POST', '/campaigns/{id}/activate', 'activateCampaign', [...WRITE], 'Activate a campaign', { schemas: activateCampaignSchemas }),
  v1('campaigns', 'POST', '/campaigns/{id}/pause', 'pauseCampaign', [...WRITE], 'Pause a campaign', { schemas: pauseCampaignSchemas }),
  v1('campaigns', 'POST', '/campaigns/{id}/archive', 'archiveCampaign', [...WRITE], 'Archive a campaign (permanent)', { schemas: archiveCampaignSchemas }),
];
