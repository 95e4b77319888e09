import { campaignBodyOf } from '#core/campaigns/types';
import type { EnrollmentRecord } from '#core/enrollments';
import { paymentBodyOf } from '#core/payments';
import { customerTags, ENROLLMENT_ENTITY, enrollmentKeys } from '../keys';
import { defineEntity } from './define-entity';

const paymentBody = (enrollment: EnrollmentRecord): string => paymentBodyOf(enrollment.payment_id) as string;
const campaignBody = (enrollment: EnrollmentRecord): string => campaignBodyOf(enrollment.campaign_id) as string;

/**
 * A payment's campaign enrollment: among its customer's data (GSI2, erasure), listed by campaign
 * (GSI1), and, only while active, in the step due index (GSI4).
 */
export const enrollmentEntity = defineEntity<EnrollmentRecord>({
  name: ENROLLMENT_ENTITY.enrollment,
  key: (e) => enrollmentKeys.enrollment(e.merchant_id, paymentBody(e)),
  indexes: (e) => ({
    ...customerTags.record(e.merchant_id, e.customer_id, enrollmentKeys.enrollment(e.merchant_id, paymentBody(e))),
    ...enrollmentKeys.byCampaign(e.merchant_id, campaignBody(e), paymentBody(e)),
    ...(e.status === 'active' && e.next_step_at !== null ? enrollmentKeys.due(e.merchant_id, paymentBody(e), e.next_step_at) : {}),
  }),
});
