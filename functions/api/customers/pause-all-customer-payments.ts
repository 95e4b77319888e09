import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { customerInPath } from './customer-lookup';
import { pauseAllCustomerPaymentsSchemas } from './schemas';
import { pauseOrResumeAll } from '#services/pause-payments';

/**
 * POST /api/v1/customers/{id}/pause-all (B): pauses every pending or retrying payment of the
 * customer (each keeps its previous status for resume, and gets its state_history entry and its
 * `payment.paused` event).
 */
export const pauseAllCustomerPayments = defineOperation(
  { auth: 'api_key', schemas: pauseAllCustomerPaymentsSchemas },
  async ({ params, principal, requestId }) => {
    const merchantId = principal.merchantId;
    const customer = await customerInPath(merchantId, params.id);
    const paymentIds = await pauseOrResumeAll(merchantId, customer.id, 'pause', "Paused with all of the customer's payments");
    return { body: envelope({ customer_id: customer.id, status: 'paused', paused_count: paymentIds.length, payment_ids: paymentIds }, requestId, merchantId) };
  },
);
