import { emailEngagementOf } from '#core/analytics/email';
import { resolvePeriod, rollupRangeOf } from '#core/analytics/period';
import { readRollups } from '#data/rollup-queries';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getEmailEngagementSchemas } from './engagement-schemas';

/**
 * GET /api/v1/analytics/email-engagement: open, click and unsubscribe rates (over the emails
 * delivered) of the emails sent in the period, overall and per campaign, optionally of one
 * campaign. Reads one Query of MSG day rollups; a campaign that sent nothing (or is not the
 * merchant's) reads as zeros, since the rollups are all it reads.
 */
export const getEmailEngagement = defineOperation({ auth: 'api_key', schemas: getEmailEngagementSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const period = resolvePeriod(query, new Date());
  const range = rollupRangeOf(period);
  const items = await readRollups(merchantId, 'MSG', range.granularity, range.first, range.last);
  const engagement = emailEngagementOf(items, query.campaign_id);
  const data = {
    channel: 'email' as const,
    period: { start_date: period.start_date, end_date: period.end_date },
    campaign_id: query.campaign_id ?? null,
    ...engagement.overall,
    by_campaign: [...engagement.by_campaign],
  };
  return { body: envelope(data, requestId, merchantId) };
});
