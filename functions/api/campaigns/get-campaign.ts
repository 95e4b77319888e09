import { ResourceNotFoundError } from '#core/errors';
import { getCampaign as readCampaign } from '#data/campaign-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getCampaignSchemas } from './schemas';
import { getSendingPause } from '#data/channel-repository';
import { campaignView } from './views';

/** GET /api/v1/campaigns/{id}: the full campaign (steps, trigger in both forms, filters, stop rules, hours, performance). Another merchant's id: 404. */
export const getCampaign = defineOperation({ auth: 'api_key', schemas: getCampaignSchemas }, async ({ params, principal, requestId }) => {
  const campaign = await readCampaign(principal.merchantId, params.id);
  if (campaign === undefined) throw new ResourceNotFoundError(`No campaign ${params.id}.`, { param: 'id' });
  return { body: envelope(campaignView(campaign, await getSendingPause(principal.merchantId)), requestId, principal.merchantId) };
});
