import { setCampaignStatus } from '#services/campaign-status';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { activateCampaignSchemas } from './schemas';
import { getSendingPause } from '#data/channel-repository';
import { campaignView } from './views';

/** POST /api/v1/campaigns/{id}/activate: draft or paused → active; from then on new failed payments that match it (and no more specific active campaign) enroll. Any other status: 409. The campaign and the merchant's active-campaign index change in one transaction, conditional on the status read, so of two concurrent activations exactly one succeeds. */
export const activateCampaign = defineOperation({ auth: 'api_key', schemas: activateCampaignSchemas }, async ({ params, principal, requestId }) => {
  const campaign = await setCampaignStatus(principal.merchantId, params.id, 'activate');
  return { body: envelope(campaignView(campaign, await getSendingPause(principal.merchantId)), requestId, principal.merchantId) };
});
