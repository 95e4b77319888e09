import { PAYMENT_STATUS_FILTERS } from '#core/payments';
import { listPayments as listPaymentRecords } from '#data/payment-queries';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { paymentView } from './views';
import { listPaymentsSchemas } from './schemas';

/**
 * GET /api/v1/payments: newest first, filtered by status (A's five, and B's `failed` and
 * `active`, expanded to A's statuses), decline category, psp and created range; offset paged,
 * `pagination.total` from the counters when no range narrows the list.
 */
export const listPayments = defineOperation({ auth: 'api_key', schemas: listPaymentsSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const { payments, pagination } = await listPaymentRecords(
    merchantId,
    {
      ...(query.status === undefined ? {} : { statuses: PAYMENT_STATUS_FILTERS[query.status] }),
      ...(query.decline_category === undefined ? {} : { declineCategory: query.decline_category }),
      ...(query.psp === undefined ? {} : { psp: query.psp }),
      ...(query.created_after === undefined ? {} : { createdAfter: query.created_after }),
      ...(query.created_before === undefined ? {} : { createdBefore: query.created_before }),
    },
    query.page,
    query.per_page,
  );
  return { body: pagedEnvelope(payments.map(paymentView), pagination, requestId, merchantId) };
});
