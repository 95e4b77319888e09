import { CAMPAIGN_TEMPLATES } from '#core/campaigns/templates';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listCampaignTemplatesSchemas } from './schemas';
import { campaignTemplateView } from './views';

/** GET /api/v1/campaigns/templates: the pre-built, decline-aware campaigns (core/campaigns/templates.ts), each with its cadence and where it comes from. */
export const listCampaignTemplates = defineOperation({ auth: 'api_key', schemas: listCampaignTemplatesSchemas }, async ({ principal, requestId }) => ({
  body: envelope(CAMPAIGN_TEMPLATES.map(campaignTemplateView), requestId, principal.merchantId),
}));
