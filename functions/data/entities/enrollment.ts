import { campaignBodyOf } from '#core/campaigns/types';
import { type EnrollmentRecord, enrollmentBodyOf } from '#core/enrollments';
import { customerTags, ENROLLMENT_ENTITY, enrollmentKeys } from '../keys';
import { defineEntity } from './define-entity';

// A payment's body, or a customer-level enrollment's occasion body (core/enrollments.ts): the same key patterns serve both.
const paymentBody = (enrollment: EnrollmentRecord): string => enrollmentBodyOf(enrollment);
const campaignBody = (enrollment: EnrollmentRecord): string => campaignBodyOf(enrollment.campaign_id) as string;

/**
 * A payment's (or a customer's, for an occasion) campaign enrollment: among its customer's data (GSI2, erasure), listed by campaign
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
