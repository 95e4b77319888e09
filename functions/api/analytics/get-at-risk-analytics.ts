import { cohortTotals, reportingCurrency } from '#core/analytics/cohort';
import { AT_RISK_STATUSES, combine, openStateOf } from '#core/analytics/open-state';
import { resolvePeriod, rollupRangeOf } from '#core/analytics/period';
import { readOpenStateCounters } from '#data/open-state-queries';
import { readRollups } from '#data/rollup-queries';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getAtRiskAnalyticsSchemas } from './recovery-schemas';

/** The currency /analytics/recovery reports by default (its default period, the last 30 days). */
async function defaultCurrency(merchantId: string): Promise<string> {
  const range = rollupRangeOf(resolvePeriod({}, new Date()));
  return reportingCurrency(cohortTotals(await readRollups(merchantId, 'PAY', range.granularity, range.first, range.last)));
}

/**
 * GET /api/v1/analytics/at-risk: the payments open now, whenever they failed. At risk: pending
 * and retrying (a retry is still coming; the spec's "sums pending and retrying"); paused
 * payments get no retry until resumed and are reported apart. One GetItem of COUNT#OPEN, and one
 * Query for the default currency when none is asked for.
 */
export const getAtRiskAnalytics = defineOperation({ auth: 'api_key', schemas: getAtRiskAnalyticsSchemas }, async ({ principal, query, requestId }) => {
  const merchantId = principal.merchantId;
  const [counters, currency] = await Promise.all([readOpenStateCounters(merchantId), query.currency ?? defaultCurrency(merchantId)]);
  const state = openStateOf(counters);
  const atRisk = combine(state, AT_RISK_STATUSES);
  return {
    body: envelope(
      {
        at_risk_cents: atRisk.amount_by_currency[currency] ?? 0,
        at_risk_count: atRisk.count,
        currency,
        at_risk_by_currency: atRisk.amount_by_currency,
        paused_cents: state.paused.amount_by_currency[currency] ?? 0,
        paused_count: state.paused.count,
        paused_by_currency: state.paused.amount_by_currency,
        by_status: state,
      },
      requestId,
      merchantId,
    ),
  };
});
