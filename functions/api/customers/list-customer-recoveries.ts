import { PAYMENT_STATUS_FILTERS } from '#core/payments';
import { listPayments } from '#data/payment-queries';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { recoveryViews } from '#api/recoveries/views';
import { enrollmentsOf } from '#data/enrollment-repository';
import { customerInPath } from './customer-lookup';
import { listCustomerRecoveriesSchemas } from './schemas';

/**
 * GET /api/v1/customers/{id}/recoveries: the customer's recoveries (one per failed payment, the
 * same item), newest first, paged, with A's status filter or B's `active` (pending or retrying).
 */
export const listCustomerRecoveries = defineOperation(
  { auth: 'api_key', schemas: listCustomerRecoveriesSchemas },
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
    const enrollments = await enrollmentsOf(
      merchantId,
      payments.map((p) => p.id),
    );
    return { body: pagedEnvelope(recoveryViews(payments, enrollments), pagination, requestId, merchantId) };
  },
);
