import type { EnrollmentRecord } from '#core/enrollments';
import { ResourceNotFoundError, StateConflictError } from '#core/errors';
import { OPEN_STATUSES } from '#core/payments';
import { getCampaign } from '#data/campaign-repository';
import { customerPaymentsIn } from '#data/customer-queries';
import { getCustomer } from '#data/customer-repository';
import { getPayment } from '#data/payment-repository';
import { enrollInCampaign, scheduleOf } from './campaign-enrollment';

export interface AtRiskEnrollment {
  readonly customer_id: string;
  readonly campaign_id: string;
  /** The enrollments this call made, one per open payment not enrolled before. */
  readonly enrolled: readonly EnrollmentRecord[];
  /** Open payments left as they were: already in a campaign (this one or another). */
  readonly skipped: readonly { readonly payment_id: string; readonly campaign_id: string; readonly reason: 'already_enrolled' }[];
}

/**
 * Enrolls an at-risk customer's open payments (pending, retrying, paused) in a campaign the
 * merchant picked, through the campaign engine's enrollment (services/campaign-enrollment.ts),
 * whatever the campaign's filters: the merchant chose this customer. A payment already in a
 * campaign stays where it is (a payment is in at most one).
 *
 * - 404 for an unknown customer or campaign, or another merchant's (the same answer).
 * - 409 when the campaign is not active (draft, paused, archived, completed): it would never run.
 * - 409 when the customer has no open payment: nothing is at risk, nothing to enroll.
 * - 409 when every open payment is enrolled already.
 */
export async function enrollAtRiskCustomer(merchantId: string, customerId: string, campaignId: string, now: Date): Promise<AtRiskEnrollment> {
  const [customer, campaign] = await Promise.all([getCustomer(merchantId, customerId), getCampaign(merchantId, campaignId)]);
  if (customer === undefined) throw new ResourceNotFoundError(`No such customer: ${customerId}`, { param: 'id' });
  if (campaign === undefined) throw new ResourceNotFoundError(`No such campaign: ${campaignId}`, { param: 'campaign_id' });
  if (campaign.status !== 'active')
    throw new StateConflictError(`Campaign ${campaign.id} is ${campaign.status}, not active: activate it before enrolling customers`);
  if (campaign.steps.length === 0) throw new StateConflictError(`Campaign ${campaign.id} has no steps`);
  // The customer index is eventually consistent: each payment is re-read before it is enrolled.
  const listed = await customerPaymentsIn(merchantId, customer.id, OPEN_STATUSES);
  const open = (await Promise.all(listed.map((payment) => getPayment(merchantId, payment.id)))).filter(
    (payment) => payment !== undefined && OPEN_STATUSES.includes(payment.status),
  );
  if (open.length === 0) throw new StateConflictError(`Customer ${customer.id} has no open payment to enroll`);
  const enrolled: EnrollmentRecord[] = [];
  const skipped: AtRiskEnrollment['skipped'][number][] = [];
  for (const payment of open) {
    if (payment === undefined) continue;
    const result = await enrollInCampaign(payment, customer, scheduleOf(campaign), now);
    if (result.outcome === 'campaign_not_active') throw new StateConflictError(`Campaign ${campaign.id} is no longer active`);
    if (result.outcome === 'enrolled') enrolled.push(result.enrollment);
    else skipped.push({ payment_id: payment.id, campaign_id: result.enrollment.campaign_id, reason: 'already_enrolled' });
  }
  if (enrolled.length === 0) {
    const campaigns = [...new Set(skipped.map((skip) => skip.campaign_id))].join(', ');
    throw new StateConflictError(`Every open payment of customer ${customer.id} is enrolled already (campaign ${campaigns})`);
  }
  return { customer_id: customer.id, campaign_id: campaign.id, enrolled, skipped };
}
