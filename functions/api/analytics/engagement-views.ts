/** Records and analytics as the engagement routes answer them, typed against engagement-schemas.ts. */
import type * as z from '#shared/zod';
import { type AtRiskCohort, cohortsOf, type OpenExposure } from '#core/analytics/at-risk-customers';
import { ratio } from '#core/analytics/ratio';
import type { CampaignRecord } from '#core/campaigns/types';
import type { CustomerRecord } from '#core/customers';
import type { EnrollmentRecord } from '#core/enrollments';
import type { AmountsByCurrency } from '#core/money';
import { MAX_BOUNCE_RATE, MAX_COMPLAINT_RATE, MIN_SENDS_TO_JUDGE, SENDING_WINDOW_DAYS, type SendingPause } from '#core/sending-pause';
import type { AtRiskCustomerRow, CampaignAnalyticsRow, getEmailHealthSchemas } from './engagement-schemas';

/** A campaign's money from its CAMP rollups, per currency. */
export interface CampaignAmounts {
  readonly enrolled: AmountsByCurrency;
  readonly recovered: AmountsByCurrency;
}

/** A campaign's row (spec "Campaign analytics row"): sessions are enrollments. */
export const campaignAnalyticsView = (c: CampaignRecord, amounts: CampaignAmounts | undefined): z.output<typeof CampaignAnalyticsRow> => {
  const recovery = ratio(c.stats.recovered, c.stats.enrolled);
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    trigger: c.trigger,
    sessions_count: c.stats.enrolled,
    recovered_count: c.stats.recovered,
    recovery_rate: recovery.rate,
    recovery,
    active_count: c.stats.active,
    completed_count: c.stats.completed,
    stopped_count: c.stats.stopped,
    messages_sent: c.stats.messages_sent,
    enrolled_amount_by_currency: amounts?.enrolled ?? {},
    recovered_amount_by_currency: amounts?.recovered ?? {},
    created_at: c.created_at,
    activated_at: c.activated_at,
  };
};

export const atRiskCustomerView = (exposure: OpenExposure, customer: CustomerRecord): z.output<typeof AtRiskCustomerRow> => {
  const cohorts: AtRiskCohort[] = cohortsOf(exposure, customer);
  return {
    id: customer.id,
    customer_id: customer.id,
    email: customer.email,
    name: customer.name,
    currency: customer.currency,
    at_risk_amount: customer.currency === null ? 0 : (exposure.at_risk_by_currency[customer.currency] ?? 0),
    at_risk_amount_by_currency: exposure.at_risk_by_currency,
    open_payments: exposure.open_payment_ids.length,
    open_payment_ids: [...exposure.open_payment_ids],
    failed_payments: customer.failed_payments,
    lifetime_value: customer.currency === null ? 0 : (customer.lifetime_value_by_currency[customer.currency] ?? 0),
    lifetime_value_by_currency: customer.lifetime_value_by_currency,
    latest_failure_at: exposure.latest_failure_at,
    cohorts,
  };
};

export const enrollmentView = (e: EnrollmentRecord) => ({
  payment_id: e.payment_id,
  recovery_id: e.recovery_id,
  campaign_id: e.campaign_id,
  status: e.status,
  enrolled_at: e.enrolled_at,
  next_step_at: e.next_step_at,
});

type SendingStatus = z.output<(typeof getEmailHealthSchemas.responses)[200]>['data']['sending'];

/** The merchant's sending pause as the admin CLI shows it, with the thresholds it is judged by. */
export const sendingStatusView = (pause: SendingPause | undefined): SendingStatus => ({
  paused: pause !== undefined,
  since: pause?.since ?? null,
  reason: pause?.reason ?? null,
  bounce_rate: pause?.bounce_rate ?? null,
  complaint_rate: pause?.complaint_rate ?? null,
  thresholds: { bounce_rate: MAX_BOUNCE_RATE, complaint_rate: MAX_COMPLAINT_RATE, window_days: SENDING_WINDOW_DAYS, min_sends: MIN_SENDS_TO_JUDGE },
});
