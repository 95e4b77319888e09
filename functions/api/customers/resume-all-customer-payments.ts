import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { customerInPath } from './customer-lookup';
import { resumeAllCustomerPaymentsSchemas } from './schemas';
import { pauseOrResumeAll } from '#services/pause-payments';

/**
 * POST /api/v1/customers/{id}/resume-all (B): resumes every paused payment of the customer, each
 * to the status it held before its pause (A) and with its `payment.resumed` event; B's answer
 * `status: active` describes the customer.
 */
export const resumeAllCustomerPayments = defineOperation(
  { auth: 'api_key', schemas: resumeAllCustomerPaymentsSchemas },
  async ({ params, principal, requestId }) => {
    const merchantId = principal.merchantId;
    const customer = await customerInPath(merchantId, params.id);
    const paymentIds = await pauseOrResumeAll(merchantId, customer.id, 'resume', "Resumed with all of the customer's payments");
    return { body: envelope({ customer_id: customer.id, status: 'active', resumed_count: paymentIds.length, payment_ids: paymentIds }, requestId, merchantId) };
  },
);
