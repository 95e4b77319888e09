import { cohortSeries, cohortTotals, groupRows, reportingCurrency } from '#core/analytics/cohort';
import { resolvePeriod, rollupRangeOf } from '#core/analytics/period';
import { DECLINE_CATEGORIES } from '#core/decline-codes/types';
import { readRollups } from '#data/rollup-queries';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getRecoveryBreakdownSchemas } from './recovery-schemas';
import { cohortBlockView, seriesView } from './recovery-views';

/** Where each segmentation reads: PAY items by one of their dimensions, or CAMP items (payments enrolled in a campaign) by campaign. */
const SEGMENTATION = {
  decline_category: { family: 'PAY', dimension: 'decline_category', always: DECLINE_CATEGORIES },
  psp: { family: 'PAY', dimension: 'psp', always: [] },
  campaign: { family: 'CAMP', dimension: 'campaign_id', always: [] },
} as const;

/**
 * GET /api/v1/analytics/recovery-breakdown: the failure cohort's time series per segment value
 * (decline category, psp or campaign). One Query over the period's rollup items of one family.
 */
export const getRecoveryBreakdown = defineOperation({ auth: 'api_key', schemas: getRecoveryBreakdownSchemas }, async ({ principal, query, requestId }) => {
  const merchantId = principal.merchantId;
  const period = resolvePeriod(query, new Date());
  const segmentBy = query.segment_by ?? 'decline_category';
  const segmentation = SEGMENTATION[segmentBy];
  const range = rollupRangeOf(period);
  const rows = await readRollups(merchantId, segmentation.family, range.granularity, range.first, range.last);
  const currency = reportingCurrency(cohortTotals(rows), query.currency);
  const groups = groupRows(rows, (row) => row.dims[segmentation.dimension] ?? '');
  for (const value of segmentation.always) if (!groups.has(value)) groups.set(value, []);
  const segments = [...groups].map(([segment, group]) => ({ segment, group, totals: cohortTotals(group) }));
  segments.sort((a, b) => b.totals.count.failed - a.totals.count.failed || (a.segment < b.segment ? -1 : 1));
  return {
    body: envelope(
      {
        segment_by: segmentBy,
        period: { start_date: period.start_date, end_date: period.end_date, group_by: period.group_by },
        currency,
        segments: segments.map(({ segment, group, totals }) => ({
          segment,
          totals: cohortBlockView(totals, currency),
          series: seriesView(cohortSeries(group, period), currency),
        })),
      },
      requestId,
      merchantId,
    ),
  };
});
