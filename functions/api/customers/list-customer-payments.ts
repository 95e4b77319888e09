import { PAYMENT_STATUS_FILTERS } from '#core/payments';
import { listPayments } from '#data/payment-queries';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { paymentView } from '#api/payments/views';
import { customerInPath } from './customer-lookup';
import { listCustomerPaymentsSchemas } from './schemas';

/**
 * GET /api/v1/customers/{id}/payments: the customer's payments, newest first, paged (A), with
 * A's status filter or B's aliases (failed, active). Served by the customer's index.
 */
export const listCustomerPayments = defineOperation(
  { auth: 'api_key', schemas: listCustomerPaymentsSchemas },
  async ({ params, query, principal, requestId }) => {
    const merchantId = principal.merchantId;
    const customer = await customerInPath(merchantId, params.id);
    const statuses = query.status === undefined ? undefined : PAYMENT_STATUS_FILTERS[query.status];
    const { payments, pagination } = await listPayments(
      merchantId,
      { customerId: customer.id, ...(statuses === undefined ? {} : { statuses }) },
      query.page,
      query.per_page,
    );
    return { body: pagedEnvelope(payments.map(paymentView), pagination, requestId, merchantId) };
  },
);
