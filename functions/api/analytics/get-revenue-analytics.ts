import { amountByCurrency, amountsIn, cohortTotals, reportingCurrency } from '#core/analytics/cohort';
import { resolvePeriod, rollupRangeOf } from '#core/analytics/period';
import { readRollups } from '#data/rollup-queries';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getRevenueAnalyticsSchemas } from './recovery-schemas';

/**
 * GET /api/v1/analytics/revenue: the period's failure cohort in money. revenue_recovered is what
 * of it was recovered since; revenue_at_risk what of it is still open now (pending, retrying or
 * paused). One Query over the period's daily PAY rollup items.
 */
export const getRevenueAnalytics = defineOperation({ auth: 'api_key', schemas: getRevenueAnalyticsSchemas }, async ({ principal, query, requestId }) => {
  const merchantId = principal.merchantId;
  const period = resolvePeriod(query, new Date());
  const range = rollupRangeOf(period);
  const totals = cohortTotals(await readRollups(merchantId, 'PAY', range.granularity, range.first, range.last));
  const currency = reportingCurrency(totals, query.currency);
  const amount = amountsIn(totals, currency);
  return {
    body: envelope(
      {
        revenue_recovered: amount.recovered,
        revenue_at_risk: amount.open,
        revenue_failed: amount.failed,
        payments_recovered: totals.count.recovered,
        payments_failed: totals.count.failed,
        payments_at_risk: totals.count.open,
        currency,
        revenue_recovered_by_currency: amountByCurrency(totals, (figures) => figures.recovered),
        revenue_at_risk_by_currency: amountByCurrency(totals, (figures) => figures.open),
        revenue_failed_by_currency: amountByCurrency(totals, (figures) => figures.failed),
        period: { start_date: period.start_date, end_date: period.end_date },
      },
      requestId,
      merchantId,
    ),
  };
});
