import { setCampaignStatus } from '#services/campaign-status';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { pauseCampaignSchemas } from './schemas';
import { getSendingPause } from '#data/channel-repository';
import { campaignView } from './views';

/** POST /api/v1/campaigns/{id}/pause: active → paused. As A says: enrollments in progress continue, nothing new enrolls (the campaign leaves the active-campaign index in the same transaction). Any other status: 409. */
export const pauseCampaign = defineOperation({ auth: 'api_key', schemas: pauseCampaignSchemas }, async ({ params, principal, requestId }) => {
  const campaign = await setCampaignStatus(principal.merchantId, params.id, 'pause');
  return { body: envelope(campaignView(campaign, await getSendingPause(principal.merchantId)), requestId, principal.merchantId) };
});
