import { emailHealthOf } from '#core/analytics/email';
import { resolvePeriod, rollupRangeOf } from '#core/analytics/period';
import { getSendingPause } from '#data/channel-repository';
import { readRollups } from '#data/rollup-queries';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getEmailHealthSchemas } from './engagement-schemas';
import { sendingStatusView } from './engagement-views';

/**
 * GET /api/v1/analytics/email-health: bounce, complaint and delivery rates of the emails sent in
 * the period (by send time), per recipient domain and per group_by bucket, and the merchant's
 * sending pause. Reads one Query of MSG rollups (day items, or hour items for group_by=hour) and
 * the pause item: the same cost at any number of messages.
 */
export const getEmailHealth = defineOperation({ auth: 'api_key', schemas: getEmailHealthSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const period = resolvePeriod(query, new Date());
  const range = rollupRangeOf(period);
  const [items, pause] = await Promise.all([readRollups(merchantId, 'MSG', range.granularity, range.first, range.last), getSendingPause(merchantId)]);
  const health = emailHealthOf(items, period);
  const data = {
    channel: 'email' as const,
    period,
    ...health.totals,
    spam_complaints: health.totals.complained,
    by_domain: [...health.by_domain],
    other_domains: health.other_domains,
    series: [...health.series],
    sending: sendingStatusView(pause),
  };
  return { body: envelope(data, requestId, merchantId) };
});
