import { fieldsOfTemplate, newCampaign } from '#core/campaigns/lifecycle';
import { campaignTemplateById } from '#core/campaigns/templates';
import { ResourceNotFoundError } from '#core/errors';
import { createCampaign } from '#data/campaign-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { createCampaignFromTemplateSchemas } from './schemas';
import { getSendingPause } from '#data/channel-repository';
import { campaignView } from './views';

/**
 * POST /api/v1/campaigns/from-template: a draft campaign with a template's trigger, filters, steps
 * and rules, named `name` or the template's name; `source_template_id` records the template.
 * An unknown template_id: 404 `param: template_id`. 201.
 */
export const createCampaignFromTemplate = defineOperation(
  { auth: 'api_key', schemas: createCampaignFromTemplateSchemas },
  async ({ body, principal, requestId }) => {
    const template = campaignTemplateById(body.template_id);
    if (template === undefined) throw new ResourceNotFoundError(`No campaign template ${body.template_id}.`, { param: 'template_id' });
    const campaign = newCampaign(principal.merchantId, fieldsOfTemplate(template, body.name), new Date());
    await createCampaign(campaign);
    return { statusCode: 201, body: envelope(campaignView(campaign, await getSendingPause(principal.merchantId)), requestId, principal.merchantId) };
  },
);
