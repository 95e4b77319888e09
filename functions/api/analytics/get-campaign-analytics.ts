import { campaignsPage } from '#data/campaign-repository';
import { cursorFilters, decodeCursor, encodeCursor } from '#api/pipeline/paging';
import { cursorEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getCampaignAnalyticsSchemas } from './engagement-schemas';
import { campaignAnalyticsView } from './engagement-views';

const LIST = 'analytics-campaigns';

/**
 * GET /api/v1/analytics/campaigns: one row per campaign (spec "Campaign analytics row"), newest
 * first, cursor paged (B: `cursor`, `limit`; A reads `data`). The figures are the campaign's own
 * stats, kept by the campaign engine in the same transaction as each enrollment change: sessions
 * are enrollments. One Query per page, whatever the number of payments.
 */
export const getCampaignAnalytics = defineOperation({ auth: 'api_key', schemas: getCampaignAnalyticsSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const filters = cursorFilters(query);
  const after = query.cursor === undefined ? undefined : String((await decodeCursor(query.cursor, merchantId, LIST, filters)).id);
  const { campaigns, more } = await campaignsPage(merchantId, after, query.limit);
  const last = campaigns[campaigns.length - 1];
  const next = more && last !== undefined ? await encodeCursor(merchantId, LIST, { id: last.id }, filters) : null;
  return { body: cursorEnvelope(campaigns.map(campaignAnalyticsView), { next }, requestId, merchantId) };
});
