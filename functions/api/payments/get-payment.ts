import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { paymentView } from './views';
import { findPayment } from './find-payment';
import { getPaymentSchemas } from './schemas';

/** GET /api/v1/payments/{id}: by `pe_`, `rec_` or provider charge id. */
export const getPayment = defineOperation({ auth: 'api_key', schemas: getPaymentSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  return { body: envelope(paymentView(await findPayment(merchantId, params.id)), requestId, merchantId) };
});
