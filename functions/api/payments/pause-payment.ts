import { meta } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { pauseRetries } from '#services/pause-payments';
import { transitionIdOf } from './find-payment';
import { pausePaymentSchemas } from './schemas';

/**
 * POST /api/v1/payments/{id}/pause: pending or retrying → paused, keeping the status to resume
 * to; 409 from any other status. A's `{ ok, data: { id, status, paused_at, previous_status } }`
 * with B's `payment_id`.
 */
export const pausePayment = defineOperation({ auth: 'api_key', schemas: pausePaymentSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const { after } = await pauseRetries(merchantId, await transitionIdOf(merchantId, params.id), 'Paused through the API');
  return {
    body: {
      ok: true,
      data: { id: after.id, payment_id: after.id, status: after.status, paused_at: after.paused_at, previous_status: after.previous_status },
      meta: meta(requestId, merchantId),
    },
  };
});
