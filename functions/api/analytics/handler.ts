import { createGroupHandler } from '#api/group-handler';
import { enrollAtRiskCustomer } from './enroll-at-risk-customer';
import { getCampaignAnalytics } from './get-campaign-analytics';
import { getEmailEngagement } from './get-email-engagement';
import { getEmailHealth } from './get-email-health';
import { listAtRiskCustomers } from './list-at-risk-customers';
import { analyticsRoutes } from './routes';

/** The analytics Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(analyticsRoutes, {
  getCampaignAnalytics,
  listAtRiskCustomers,
  enrollAtRiskCustomer,
  getEmailHealth,
  getEmailEngagement,
});
