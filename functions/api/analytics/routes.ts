import { type RouteDef, WRITE, v1 } from '#api/route-rows';
import { engagementRowOptions as E } from './engagement-schemas';
import { R } from './recovery-schemas';

/** The `analytics` group's rows of the route table: its Lambda serves exactly these. */
export const analyticsRoutes: readonly RouteDef[] = [
  v1('analytics', 'GET', '/analytics/recovery', 'getRecoveryAnalytics', ['read', 'analytics'], 'Recovery analytics', { schemas: R.recovery }),
  v1('analytics', 'GET', '/analytics/summary', 'getAnalyticsSummary', ['read', 'analytics'], 'Alias of recovery analytics', { schemas: R.summary }),
  v1('analytics', 'GET', '/analytics/campaigns', 'getCampaignAnalytics', ['read', 'analytics'], 'Campaign performance', E.campaigns),
  v1('analytics', 'GET', '/analytics/revenue', 'getRevenueAnalytics', ['read', 'analytics'], 'Revenue recovered and at risk', { schemas: R.revenue }),
  v1('analytics', 'GET', '/analytics/at-risk', 'getAtRiskAnalytics', ['read', 'analytics'], 'Revenue at risk', { schemas: R.atRisk }),
  v1('analytics', 'GET', '/analytics/decline-codes', 'getDeclineCodeAnalytics', ['read', 'analytics'], 'Decline-code distribution', { schemas: R.codes }),
  v1('analytics', 'GET', '/analytics/recovery-breakdown', 'getRecoveryBreakdown', ['read', 'analytics'], 'Recovery time series by segment', {
    schemas: R.breakdown,
  }),
  v1('analytics', 'GET', '/analytics/at-risk-customers', 'listAtRiskCustomers', ['read', 'analytics'], 'Customers at risk by cohort', E.atRiskCustomers),
  v1('analytics', 'POST', '/analytics/at-risk-customers/{id}/enroll', 'enrollAtRiskCustomer', WRITE, 'Enroll an at-risk customer into a campaign', E.enroll),
  v1('analytics', 'GET', '/analytics/email-health', 'getEmailHealth', ['read', 'analytics', 'email'], 'Bounce, complaint and reputation figures', E.health),
  v1('analytics', 'GET', '/analytics/email-engagement', 'getEmailEngagement', ['read', 'analytics', 'email'], 'Open, click and unsubscribe rates', E.engage),
];
