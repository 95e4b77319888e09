import { type RouteDef, v1 } from '#api/route-rows';

/** The `campaigns` group's rows of the route table: its Lambda serves exactly these. */
export const campaignsRoutes: readonly RouteDef[] = [
  v1('campaigns', 'GET', '/campaigns', 'listCampaigns', ['read', 'read:campaigns'], 'List campaigns'),
  v1('campaigns', 'GET', '/campaigns/templates', 'listCampaignTemplates', ['read', 'read:campaigns'], 'Pre-built campaign templates'),
  v1('campaigns', 'POST', '/campaigns/from-template', 'createCampaignFromTemplate', ['write', 'write:campaigns'], 'Create a campaign from a template'),
  v1('campaigns', 'POST', '/campaigns/overlap', 'checkCampaignOverlap', ['read', 'read:campaigns'], 'Check overlap with active campaigns'),
  v1('campaigns', 'POST', '/campaigns/simulate', 'simulateCampaign', ['read', 'read:campaigns'], 'Simulate a campaign over past payments'),
  v1('campaigns', 'GET', '/campaigns/{id}', 'getCampaign', ['read', 'read:campaigns'], 'One campaign with its steps'),
  v1('campaigns', 'POST', '/campaigns', 'createCampaign', ['write', 'write:campaigns'], 'Create a campaign (draft)'),
  v1('campaigns', 'PUT', '/campaigns/{id}', 'updateCampaign', ['write', 'write:campaigns'], 'Update a draft or paused campaign'),
  v1('campaigns', 'POST', '/campaigns/{id}/activate', 'activateCampaign', ['write', 'write:campaigns'], 'Activate a campaign'),
  v1('campaigns', 'POST', '/campaigns/{id}/pause', 'pauseCampaign', ['write', 'write:campaigns'], 'Pause a campaign'),
  v1('campaigns', 'POST', '/campaigns/{id}/archive', 'archiveCampaign', ['write', 'write:campaigns'], 'Archive a campaign (permanent)'),
];
