import { addAmount } from '#core/money';
import { campaignsPage } from '#data/campaign-repository';
import { type RollupItem, readRollups } from '#data/rollup-queries';
import { cursorFilters, decodeCursor, encodeCursor } from '#api/pipeline/paging';
import { cursorEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getCampaignAnalyticsSchemas } from './engagement-schemas';
import { type CampaignAmounts, campaignAnalyticsView } from './engagement-views';

const LIST = 'analytics-campaigns';
/** The whole history of CAMP day items (a campaign's amounts are all time). */
const ALL_DAYS = { first: '2000-01-01', last: '9999-12-31' } as const;

/** Each campaign's enrolled and recovered amounts per currency, from its CAMP day items. */
function campaignAmountsOf(items: readonly RollupItem[]): Map<string, CampaignAmounts> {
  const amounts = new Map<string, CampaignAmounts>();
  for (const item of items) {
    const campaignId = item.dims.campaign_id;
    const currency = item.dims.currency;
    if (campaignId === undefined || currency === undefined) continue;
    const before = amounts.get(campaignId) ?? { enrolled: {}, recovered: {} };
    const enrolled = item.counters.failed_amount ?? 0;
    const recovered = item.counters.recovered_amount ?? 0;
    // A currency appears once it has an amount (a counter taken back to 0 leaves no key).
    amounts.set(campaignId, {
      enrolled: enrolled === 0 ? before.enrolled : addAmount(before.enrolled, currency, enrolled),
      recovered: recovered === 0 ? before.recovered : addAmount(before.recovered, currency, recovered),
    });
  }
  return amounts;
}

/**
 * GET /api/v1/analytics/campaigns: one row per campaign (spec "Campaign analytics row"), newest
 * first, cursor paged (B: `cursor`, `limit`; A reads `data`). The figures are the campaign's own
 * stats, kept by the campaign engine in the same transaction as each enrollment change: sessions
 * are enrollments. The amounts per currency come from the CAMP day rollups of the whole history
 * (one Query, whose size follows days × campaigns × currencies, never the number of payments).
 */
export const getCampaignAnalytics = defineOperation({ auth: 'api_key', schemas: getCampaignAnalyticsSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const filters = cursorFilters(query);
  const after = query.cursor === undefined ? undefined : String((await decodeCursor(query.cursor, merchantId, LIST, filters)).id);
  const [{ campaigns, more }, rollups] = await Promise.all([
    campaignsPage(merchantId, after, query.limit),
    readRollups(merchantId, 'CAMP', 'D', ALL_DAYS.first, ALL_DAYS.last),
  ]);
  const amounts = campaignAmountsOf(rollups);
  const last = campaigns[campaigns.length - 1];
  const next = more && last !== undefined ? await encodeCursor(merchantId, LIST, { id: last.id }, filters) : null;
  const rows = campaigns.map((campaign) => campaignAnalyticsView(campaign, amounts.get(campaign.id)));
  return { body: cursorEnvelope(rows, { next }, requestId, merchantId) };
});
