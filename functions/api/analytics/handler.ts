import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { enrollAtRiskCustomer } from './enroll-at-risk-customer';
import { getCampaignAnalytics } from './get-campaign-analytics';
import { getEmailEngagement } from './get-email-engagement';
import { getEmailHealth } from './get-email-health';
import { listAtRiskCustomers } from './list-at-risk-customers';
import { analyticsRoutes } from './routes';
import { getAnalyticsSummary } from './get-analytics-summary';
import { getAtRiskAnalytics } from './get-at-risk-analytics';
import { getDeclineCodeAnalytics } from './get-decline-code-analytics';
import { getRecoveryAnalytics } from './get-recovery-analytics';
import { getRecoveryBreakdown } from './get-recovery-breakdown';
import { getRevenueAnalytics } from './get-revenue-analytics';

/** The analytics Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(
  analyticsRoutes,
  {
    getRecoveryAnalytics,
    getAnalyticsSummary,
    getRevenueAnalytics,
    getAtRiskAnalytics,
    getDeclineCodeAnalytics,
    getRecoveryBreakdown,
    getCampaignAnalytics,
    listAtRiskCustomers,
    enrollAtRiskCustomer,
    getEmailHealth,
    getEmailEngagement,
  },
  apiKeyAuth,
);
