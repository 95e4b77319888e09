import { cohortTotals, reportingCurrency, rowsMatching } from '#core/analytics/cohort';
import { compareDeclineCodePositions, type DeclineCodePosition, declineCodeRows, positionOf } from '#core/analytics/decline-code-rows';
import { resolvePeriod, rollupRangeOf } from '#core/analytics/period';
import { readRollups } from '#data/rollup-queries';
import { cursorFilters, decodeCursor, encodeCursor } from '#api/pipeline/paging';
import { meta } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getDeclineCodeAnalyticsSchemas } from './recovery-schemas';
import { declineCodeRowView } from './recovery-views';

const LIST = 'analytics-decline-codes';

/**
 * GET /api/v1/analytics/decline-codes: the period's failure cohort by decline code (B's psp
 * filter), most occurrences first, cursor-paged (B). The cursor holds the position of the last
 * row sent, so a page continues after it even when the counts moved in between. One Query over
 * the period's daily PAY rollup items, whatever the page.
 */
export const getDeclineCodeAnalytics = defineOperation(
  { auth: 'api_key', schemas: getDeclineCodeAnalyticsSchemas },
  async ({ principal, query, requestId }) => {
    const merchantId = principal.merchantId;
    const period = resolvePeriod(query, new Date());
    const filters = cursorFilters(query);
    const after = query.cursor === undefined ? undefined : ((await decodeCursor(query.cursor, merchantId, LIST, filters)) as unknown as DeclineCodePosition);
    const range = rollupRangeOf(period);
    const rows = rowsMatching(await readRollups(merchantId, 'PAY', range.granularity, range.first, range.last), { psp: query.psp });
    const currency = reportingCurrency(cohortTotals(rows), query.currency);
    const { rows: codes, withoutCode } = declineCodeRows(rows);
    const rest = after === undefined ? codes : codes.filter((row) => compareDeclineCodePositions(positionOf(row), after) > 0);
    const page = rest.slice(0, query.limit);
    const last = page[page.length - 1];
    const next = rest.length > page.length && last !== undefined ? await encodeCursor(merchantId, LIST, { ...positionOf(last) }, filters) : null;
    const data = {
      decline_codes: page.map((row) => declineCodeRowView(row, currency)),
      without_decline_code: { occurrences: withoutCode.count.failed, recovered: withoutCode.count.recovered },
      currency,
      period: { start_date: period.start_date, end_date: period.end_date },
    };
    // A's data is an object (decline_codes and period), so B's cursor goes beside it rather than through cursorEnvelope.
    return { body: { data, cursor: { next }, meta: meta(requestId, merchantId) } };
  },
);
