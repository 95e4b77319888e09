import { ResourceNotFoundError } from '#core/errors';
import { getPaymentByInvoice } from '#data/payment-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { invoiceView } from './views';
import { getInvoiceRecoveryStatusSchemas } from './schemas';

/**
 * GET /api/v1/invoices/{id}: the recovery status of a failed invoice (A), by the provider's
 * invoice id; 404 when the merchant has no failed payment for it.
 */
export const getInvoiceRecoveryStatus = defineOperation(
  { auth: 'api_key', schemas: getInvoiceRecoveryStatusSchemas },
  async ({ params, principal, requestId }) => {
    const merchantId = principal.merchantId;
    const payment = await getPaymentByInvoice(merchantId, params.id);
    if (payment === undefined) throw new ResourceNotFoundError(`No failed invoice ${params.id}.`, { param: 'id' });
    return { body: envelope(invoiceView(payment), requestId, merchantId) };
  },
);
