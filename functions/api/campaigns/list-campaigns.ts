import { canonicalTrigger } from '#core/campaigns/triggers';
import { listCampaigns as readCampaigns } from '#data/campaign-repository';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listCampaignsSchemas } from './schemas';
import { getSendingPause } from '#data/channel-repository';
import { campaignView } from './views';

/**
 * GET /api/v1/campaigns: the merchant's campaigns, newest first, offset-paged (page, per_page).
 * `status` takes A's values and B's `completed` (another value: 400 `param: status`); `trigger`
 * (B) takes any trigger value of either form and keeps campaigns with that canonical trigger.
 */
export const listCampaigns = defineOperation({ auth: 'api_key', schemas: listCampaignsSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const [{ campaigns, total }, pause] = await Promise.all([
    readCampaigns(
      merchantId,
      {
        ...(query.status === undefined ? {} : { status: query.status }),
        ...(query.trigger === undefined ? {} : { trigger: canonicalTrigger(query.trigger) }),
      },
      query.page,
      query.per_page,
    ),
    getSendingPause(merchantId),
  ]);
  const pagination = { total, page: query.page, per_page: query.per_page, total_pages: Math.ceil(total / query.per_page) };
  return {
    body: pagedEnvelope(
      campaigns.map((campaign) => campaignView(campaign, pause)),
      pagination,
      requestId,
      merchantId,
    ),
  };
});
