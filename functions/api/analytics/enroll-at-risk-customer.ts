import { enrollAtRiskCustomer as enroll } from '#services/enroll-at-risk-customer';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { enrollAtRiskCustomerSchemas } from './engagement-schemas';
import { enrollmentView } from './engagement-views';

/**
 * POST /api/v1/analytics/at-risk-customers/{id}/enroll: enrolls the customer's open payments in an
 * active campaign (services/enroll-at-risk-customer.ts): 201 with the enrollments made; 404 for a
 * customer or campaign that is not the merchant's; 409 when the campaign is not active, the
 * customer has no open payment, or every open payment is enrolled already.
 */
export const enrollAtRiskCustomer = defineOperation(
  { auth: 'api_key', schemas: enrollAtRiskCustomerSchemas },
  async ({ params, body, principal, requestId }) => {
    const merchantId = principal.merchantId;
    const result = await enroll(merchantId, params.id, body.campaign_id, new Date());
    const data = {
      customer_id: result.customer_id,
      campaign_id: result.campaign_id,
      enrolled: result.enrolled.map(enrollmentView),
      skipped: [...result.skipped],
    };
    return { statusCode: 201, body: envelope(data, requestId, merchantId) };
  },
);
