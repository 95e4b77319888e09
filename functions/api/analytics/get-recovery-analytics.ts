import { rowsMatching } from '#core/analytics/cohort';
import { resolvePeriod, rollupRangeOf } from '#core/analytics/period';
import { readRollups } from '#data/rollup-queries';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getRecoveryAnalyticsSchemas } from './recovery-schemas';
import { recoveryAnalyticsView } from './recovery-views';

/**
 * GET /api/v1/analytics/recovery: the failure cohort of the period (payments by the day they
 * failed), filtered by psp and decline category, with rates, categories, methods and the series.
 * One Query over the period's PAY rollup items (hourly items for group_by=hour, daily otherwise).
 */
export const getRecoveryAnalytics = defineOperation({ auth: 'api_key', schemas: getRecoveryAnalyticsSchemas }, async ({ principal, query, requestId }) => {
  const merchantId = principal.merchantId;
  const period = resolvePeriod(query, new Date());
  const range = rollupRangeOf(period);
  const items = await readRollups(merchantId, 'PAY', range.granularity, range.first, range.last);
  const rows = rowsMatching(items, { psp: query.psp, decline_category: query.decline_category });
  return { body: envelope(recoveryAnalyticsView(rows, period, query.currency), requestId, merchantId) };
});
