import type { Projection } from './projection';
import { cohortContributions, rolledUpPaymentOf } from './payment-rollups';

/**
 * `CAMP` rollups: the payments enrolled in a campaign (`campaign_id` set on the payment when it is
 * enrolled, data/enrollment-repository.ts putEnrollment), by failure cohort as PAY, per campaign
 * and currency, with PAY's counters. A payment counts under its campaign for good once enrolled,
 * whatever became of the enrollment: the campaign's rows are about the payments it took on.
 */
export const campaignRollupsProjection: Projection = (item) => {
  const payment = rolledUpPaymentOf(item);
  if (payment === undefined || payment.campaign_id === null || payment.campaign_id === '') return [];
  return cohortContributions(payment, 'CAMP', [
    ['campaign_id', payment.campaign_id],
    ['currency', payment.currency],
  ]);
};
