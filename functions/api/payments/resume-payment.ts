import { meta } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { resumeRetries } from '#services/pause-payments';
import { transitionIdOf } from './find-payment';
import { resumePaymentSchemas } from './schemas';

/**
 * POST /api/v1/payments/{id}/resume: paused → the status held before the pause (DESIGN §1: A's
 * status, not B's `active`); 409 from any other status. A's `{ ok, data: { id, status,
 * resumed_at, next_retry_at } }` with B's `payment_id`. A retry scheduled before the pause keeps
 * its `next_retry_at`; the retry engine picks it up again once the payment is no longer paused.
 */
export const resumePayment = defineOperation({ auth: 'api_key', schemas: resumePaymentSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const { after } = await resumeRetries(merchantId, await transitionIdOf(merchantId, params.id), 'Resumed through the API');
  return {
    body: {
      ok: true,
      data: { id: after.id, payment_id: after.id, status: after.status, resumed_at: after.resumed_at, next_retry_at: after.next_retry_at },
      meta: meta(requestId, merchantId),
    },
  };
});
