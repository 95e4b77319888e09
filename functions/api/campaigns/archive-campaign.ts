import { setCampaignStatus } from '#services/campaign-status';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { archiveCampaignSchemas } from './schemas';
import { getSendingPause } from '#data/channel-repository';
import { campaignView } from './views';

/** POST /api/v1/campaigns/{id}/archive: any status but archived → archived, permanently (nothing moves it out). An active campaign leaves the active-campaign index in the same transaction. Already archived: 409. */
export const archiveCampaign = defineOperation({ auth: 'api_key', schemas: archiveCampaignSchemas }, async ({ params, principal, requestId }) => {
  const campaign = await setCampaignStatus(principal.merchantId, params.id, 'archive');
  return { body: envelope(campaignView(campaign, await getSendingPause(principal.merchantId)), requestId, principal.merchantId) };
});
