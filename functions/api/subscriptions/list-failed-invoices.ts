import { isInvoiced } from '#core/payments';
import { subscriptionPayments } from '#data/payment-queries';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { failedInvoiceView } from './views';
import { listFailedInvoicesSchemas } from './schemas';

/**
 * GET /api/v1/subscriptions/{id}/failed-invoices: the subscription's failed payments that carry
 * an invoice id, newest first, offset-paged. A subscription without failure data has an empty
 * list (200), as its status is `unknown` rather than 404. The subscription's failures are read
 * whole (one Query of its index entries, then GetItems): their number per subscription is small.
 */
export const listFailedInvoices = defineOperation({ auth: 'api_key', schemas: listFailedInvoicesSchemas }, async ({ params, query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const invoiced = (await subscriptionPayments(merchantId, params.id)).filter(isInvoiced);
  const start = (query.page - 1) * query.per_page;
  const pagination = { total: invoiced.length, page: query.page, per_page: query.per_page, total_pages: Math.ceil(invoiced.length / query.per_page) };
  return { body: pagedEnvelope(invoiced.slice(start, start + query.per_page).map(failedInvoiceView), pagination, requestId, merchantId) };
});
