import { ResourceNotFoundError } from '#core/errors';
import { paymentTimeline } from '#data/payment-queries';
import { getPaymentByInvoice } from '#data/payment-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { invoiceTimelineView } from './views';
import { getInvoiceTimelineSchemas } from './schemas';

/**
 * GET /api/v1/invoices/{id}/timeline: what happened to a failed invoice's payment, oldest first
 * (failure, retries, status changes, dunning emails); each event has A's `detail` text and B's
 * `details` object. 404 when the merchant has no failed payment for the invoice.
 */
export const getInvoiceTimeline = defineOperation({ auth: 'api_key', schemas: getInvoiceTimelineSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const payment = await getPaymentByInvoice(merchantId, params.id);
  if (payment === undefined) throw new ResourceNotFoundError(`No failed invoice ${params.id}.`, { param: 'id' });
  return { body: envelope(invoiceTimelineView(payment, await paymentTimeline(merchantId, payment)), requestId, merchantId) };
});
