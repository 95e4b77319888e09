import * as z from '#shared/zod';
import { RECOVERY_METHODS } from '#core/recovery-method';
import { OPEN_STATUSES } from '#core/analytics/open-state';
import { DECLINE_CATEGORIES } from '#core/decline-codes/types';
import { CURRENCIES } from '#core/money';
import { cursorPagingQuery } from '#api/pipeline/paging-query';
import { AmountsByCurrency, ResponseMeta } from '#api/envelope-schemas';
import { PAYMENT_PSPS } from '#api/payments/schemas';
import { groupByQuery, periodQuery } from './period-query';

/**
 * Schemas of the recovery analytics routes (recovery, summary, revenue, at-risk, decline codes,
 * recovery breakdown). Definitions: docs/analytics.md.
 */

const Int = z.number().check(z.int());
/** A copy of the schema with an OpenAPI description (the copy, so that shared schemas keep their own). */
function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as z.ZodMiniType;
  z.globalRegistry.add(copy, { description });
  return copy as T;
}

const currencyQuery = described(
  z.optional(z.enum(CURRENCIES)),
  'The reporting currency of amount figures (B). Default: the currency with the most failed payments in the period (ties: alphabetical), `usd` when none failed. Counts always cover every currency.',
);
const pspQuery = described(z.optional(z.enum(PAYMENT_PSPS)), 'Only payments of this provider (`ingest`: payments ingested from another platform).');
const categoryQuery = described(z.optional(z.enum(DECLINE_CATEGORIES)), 'Only payments of this decline category.');

export const SEGMENTS = ['decline_category', 'psp', 'campaign'] as const;

export const RecoveryAnalyticsQuery = z.object({
  ...periodQuery,
  ...groupByQuery,
  psp: pspQuery,
  decline_category: categoryQuery,
  currency: currencyQuery,
});
export const RevenueAnalyticsQuery = z.object({ ...periodQuery, currency: currencyQuery });
export const AtRiskAnalyticsQuery = z.object({
  currency: described(
    z.optional(z.enum(CURRENCIES)),
    'The currency of at_risk_cents and paused_cents. Default: the reporting currency of the last 30 days (see /analytics/recovery), `usd` when nothing failed.',
  ),
});
export const DeclineCodeAnalyticsQuery = z.object({ ...periodQuery, psp: pspQuery, currency: currencyQuery, ...cursorPagingQuery });
export const RecoveryBreakdownQuery = z.object({
  ...periodQuery,
  ...groupByQuery,
  segment_by: described(
    z.optional(z.enum(SEGMENTS)),
    'decline_category (default), psp, or campaign (the payments enrolled in a campaign, by campaign; payments in no campaign are not in this breakdown).',
  ),
  currency: currencyQuery,
});

export const RatioSchema = z
  .object({
    rate: described(z.number(), 'numerator / denominator, 0-1, 4 decimals; 0 when the denominator is 0.'),
    numerator: Int,
    denominator: Int,
  })
  .clone()
  .register(z.globalRegistry, { id: 'Ratio' });

const RateForms = z.object({ by_count: RatioSchema, by_amount: described(RatioSchema, 'In the reporting currency (smallest unit).') });
export const RecoveryRatesSchema = z
  .object({
    attempted: described(RateForms, 'Recovered over every failed payment of the cohort (open ones included).'),
    closed: described(RateForms, 'Recovered over the closed payments of the cohort: recovered + terminal (open ones left out).'),
  })
  .clone()
  .register(z.globalRegistry, { id: 'RecoveryRates' });

const countsAndAmounts = {
  total_failed: described(Int, 'Payments of the cohort (each failed payment once), every currency.'),
  total_recovered: described(Int, 'Payments of the cohort recovered since, every currency.'),
  total_terminal: described(Int, 'Payments of the cohort that failed for good (terminal, cancelled, expired), every currency.'),
  total_pending: described(Int, 'Payments of the cohort still open (pending, retrying or paused), every currency.'),
  recovery_rate: described(z.number(), 'A: the attempted rate by count, total_recovered / total_failed (0-1).'),
  total_failed_amount: described(Int, 'In the reporting currency, smallest unit.'),
  total_recovered_amount: described(Int, 'In the reporting currency, smallest unit.'),
  total_terminal_amount: Int,
  total_pending_amount: Int,
  total_failed_amount_by_currency: AmountsByCurrency,
  total_recovered_amount_by_currency: AmountsByCurrency,
  total_terminal_amount_by_currency: AmountsByCurrency,
  total_pending_amount_by_currency: AmountsByCurrency,
};

export const CohortBlock = z.object({ ...countsAndAmounts, rates: RecoveryRatesSchema });

const SeriesPoint = z.object({
  bucket: described(z.string(), 'hour `YYYY-MM-DDTHH:00:00Z`, day `YYYY-MM-DD`, week (its Monday) `YYYY-MM-DD` or month `YYYY-MM`, UTC.'),
  total_failed: Int,
  total_recovered: Int,
  total_terminal: Int,
  total_pending: Int,
  recovery_rate: z.number(),
  total_failed_amount: Int,
  total_recovered_amount: Int,
  failed_amount_by_currency: AmountsByCurrency,
  recovered_amount_by_currency: AmountsByCurrency,
});
const Series = described(z.array(SeriesPoint), 'Every bucket of the period by group_by, oldest first; buckets without failures have zeros.');

const MethodFigures = z.object({ count: Int, amount: described(Int, 'In the reporting currency.'), amount_by_currency: AmountsByCurrency });
const RecoveredByMethod = described(
  z.object(Object.fromEntries(RECOVERY_METHODS.map((method) => [method, MethodFigures])) as Record<(typeof RECOVERY_METHODS)[number], typeof MethodFigures>),
  'Recovered payments of the cohort by what recovered them (docs/analytics.md, "Recovery methods").',
);
const CurrencyFigures = z.object({
  failed_count: Int,
  failed_amount: Int,
  recovered_count: Int,
  recovered_amount: Int,
  terminal_count: Int,
  terminal_amount: Int,
  pending_count: Int,
  pending_amount: Int,
  rates: RecoveryRatesSchema,
});

const PeriodSchema = z.object({ start_date: z.string(), end_date: z.string(), group_by: z.enum(['hour', 'day', 'week', 'month']) });
const CategoryRow = z.object({
  category: z.enum(DECLINE_CATEGORIES),
  failures: Int,
  recovered: Int,
  terminal: Int,
  pending: Int,
  recovery_rate: described(z.number(), 'Attempted, by count.'),
  recovered_amount: described(Int, 'In the reporting currency.'),
  failed_amount: Int,
  recovered_amount_by_currency: AmountsByCurrency,
  failed_amount_by_currency: AmountsByCurrency,
  rates: RecoveryRatesSchema,
});

export const RecoveryAnalyticsResponse = z.object({
  data: z.object({
    summary: z.object({
      ...countsAndAmounts,
      currency: described(z.string(), 'The reporting currency of every amount that is not in a `*_by_currency` map.'),
      rates: RecoveryRatesSchema,
      recovered_by_method: RecoveredByMethod,
      by_currency: described(z.record(z.string(), CurrencyFigures), "Each currency's own counts, amounts and rates."),
    }),
    by_category: described(
      z.array(CategoryRow),
      'A: one row per decline category, the four always, in the order soft_retry, hard_customer, terminal, unknown.',
    ),
    by_category_keyed: described(
      z.record(z.string(), z.object({ count: Int, recovered: Int, rate: z.number() })),
      "B's by_category (A's array keeps the name): by category, count (failed), recovered, rate (attempted, by count).",
    ),
    period: PeriodSchema,
    meta: described(PeriodSchema, "B: the period, as B's body has it."),
    currency: z.string(),
    series: Series,
  }),
  meta: ResponseMeta,
});

export const RevenueAnalyticsResponse = z.object({
  data: z.object({
    revenue_recovered: described(Int, 'Amount of the cohort recovered since, reporting currency.'),
    revenue_at_risk: described(Int, 'Amount of the cohort still open now (pending, retrying or paused), reporting currency.'),
    revenue_failed: described(Int, 'Amount of every failed payment of the cohort, reporting currency.'),
    payments_recovered: described(Int, 'Payments of the cohort recovered, every currency.'),
    payments_failed: described(Int, 'Payments of the cohort, every currency.'),
    payments_at_risk: described(Int, 'Payments of the cohort still open, every currency.'),
    currency: z.string(),
    revenue_recovered_by_currency: AmountsByCurrency,
    revenue_at_risk_by_currency: AmountsByCurrency,
    revenue_failed_by_currency: AmountsByCurrency,
    period: z.object({ start_date: z.string(), end_date: z.string() }),
  }),
  meta: ResponseMeta,
});

const OpenFiguresSchema = z.object({ count: Int, amount_by_currency: AmountsByCurrency });
export const AtRiskAnalyticsResponse = z.object({
  data: z.object({
    at_risk_cents: described(Int, 'Amount of the payments open now with a retry still coming (pending and retrying), in `currency`.'),
    at_risk_count: described(Int, 'Payments pending or retrying now, every currency.'),
    currency: z.string(),
    at_risk_by_currency: AmountsByCurrency,
    paused_cents: described(Int, 'Amount of the paused payments (no retry until resumed, so not at risk of one), in `currency`.'),
    paused_count: Int,
    paused_by_currency: AmountsByCurrency,
    by_status: z.object(
      Object.fromEntries(OPEN_STATUSES.map((status) => [status, OpenFiguresSchema])) as Record<(typeof OPEN_STATUSES)[number], typeof OpenFiguresSchema>,
    ),
  }),
  meta: ResponseMeta,
});

const DeclineCodeRowSchema = z.object({
  decline_code: z.string(),
  category: z.enum(DECLINE_CATEGORIES),
  subcategory: described(z.nullable(z.string()), 'From the decline catalogue; null when no provider in it has the code in this category.'),
  occurrences: described(Int, 'Failed payments of the cohort with this code and category, every currency.'),
  recovered: Int,
  terminal: Int,
  pending: Int,
  recovery_rate: described(z.number(), 'Attempted, by count.'),
  total_amount: described(Int, 'Amount of the failed payments, reporting currency.'),
  total_amount_by_currency: AmountsByCurrency,
  recovered_amount: Int,
  recovered_amount_by_currency: AmountsByCurrency,
  rates: RecoveryRatesSchema,
});

export const DeclineCodeAnalyticsResponse = z.object({
  data: z.object({
    decline_codes: described(z.array(DeclineCodeRowSchema), 'Most occurrences first, then code, then category.'),
    without_decline_code: described(
      z.object({ occurrences: Int, recovered: Int }),
      'Failed payments of the cohort that carry no decline code (not in decline_codes).',
    ),
    currency: z.string(),
    period: z.object({ start_date: z.string(), end_date: z.string() }),
  }),
  cursor: z.object({ next: described(z.nullable(z.string()), 'The cursor of the next page; null at the end.') }),
  meta: ResponseMeta,
});

export const RecoveryBreakdownResponse = z.object({
  data: z.object({
    segment_by: z.enum(SEGMENTS),
    period: PeriodSchema,
    currency: z.string(),
    segments: described(
      z.array(z.object({ segment: described(z.string(), 'The category, psp or campaign id.'), totals: CohortBlock, series: Series })),
      'One per segment value with failures in the period (decline_category: the four always), most failures first.',
    ),
  }),
  meta: ResponseMeta,
});

export const getRecoveryAnalyticsSchemas = { query: RecoveryAnalyticsQuery, responses: { 200: RecoveryAnalyticsResponse } } as const;
export const AnalyticsSummaryRedirect = described(
  z.object({ location: described(z.string(), 'The same as the Location header: `recovery?<the same query>`, relative to this URL.') }),
  'A: the summary is an alias of /analytics/recovery; a client that follows redirects gets its body.',
);
export const getAnalyticsSummarySchemas = { query: RecoveryAnalyticsQuery, responses: { 307: AnalyticsSummaryRedirect } } as const;
export const getRevenueAnalyticsSchemas = { query: RevenueAnalyticsQuery, responses: { 200: RevenueAnalyticsResponse } } as const;
export const getAtRiskAnalyticsSchemas = { query: AtRiskAnalyticsQuery, responses: { 200: AtRiskAnalyticsResponse } } as const;
export const getDeclineCodeAnalyticsSchemas = { query: DeclineCodeAnalyticsQuery, responses: { 200: DeclineCodeAnalyticsResponse } } as const;
export const getRecoveryBreakdownSchemas = { query: RecoveryBreakdownQuery, responses: { 200: RecoveryBreakdownResponse } } as const;

/** The schemas of each recovery route's row, by a short name, so each row of routes.ts stays one line. */
export const R = {
  recovery: getRecoveryAnalyticsSchemas,
  summary: getAnalyticsSummarySchemas,
  revenue: getRevenueAnalyticsSchemas,
  atRisk: getAtRiskAnalyticsSchemas,
  codes: getDeclineCodeAnalyticsSchemas,
  breakdown: getRecoveryBreakdownSchemas,
} as const;
