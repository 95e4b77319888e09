import { listCustomers as listCustomerRecords } from '#data/customer-queries';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { customerView } from './views';
import { listCustomersSchemas } from './schemas';

/**
 * GET /api/v1/customers: the merchant's customers, newest first. Filters (A): has_failed_payment,
 * search (prefix of the email, the name or any word of either, or the exact provider customer id), created_after (inclusive),
 * created_before (exclusive). See `listCustomers` in data/customer-queries.ts for how each is served
 * and where pagination.total comes from.
 */
export const listCustomers = defineOperation({ auth: 'api_key', schemas: listCustomersSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const search = query.search === undefined || query.search === '' ? undefined : query.search;
  const { customers, pagination } = await listCustomerRecords(
    merchantId,
    {
      ...(query.has_failed_payment === undefined ? {} : { hasFailedPayment: query.has_failed_payment }),
      ...(search === undefined ? {} : { search }),
      ...(query.created_after === undefined ? {} : { createdAfter: query.created_after }),
      ...(query.created_before === undefined ? {} : { createdBefore: query.created_before }),
    },
    query.page,
    query.per_page,
  );
  return { body: pagedEnvelope(customers.map(customerView), pagination, requestId, merchantId) };
});
