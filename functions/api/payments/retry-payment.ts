import { requestRetry } from '#services/request-retry';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { transitionIdOf } from './find-payment';
import { retryPaymentSchemas } from './schemas';

/**
 * POST /api/v1/payments/{id}/retry: hands the retry to the retry executor (services/request-retry.ts):
 * the payment's retry becomes due now, and the executor's next run (every minute) attempts it with
 * its lease and idempotency key; nothing is charged in this request. When the merchant's quiet
 * hours or a card-network cap forbid an attempt now, the retry is due at the first time they allow.
 * 409 where the spec refuses a retry (recovered, terminal or paused, at max_retries, a
 * hard_customer decline still waiting for a card update, an attempt in flight), within 5 minutes of
 * the last attempt or manual retry, with no payment gateway configured, or on a card blocked after
 * a do-not-retry answer.
 *
 * 202 with one record for both forms: A's {payment_id, status, next_retry_at}, `status`
 * `retry_initiated` when the attempt is queued now and `retry_scheduled` when it was deferred;
 * B's {retry_scheduled: true, retry_number, scheduled_at}; plus payment_status and the reason.
 */
export const retryPayment = defineOperation({ auth: 'api_key', schemas: retryPaymentSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const request = await requestRetry(merchantId, await transitionIdOf(merchantId, params.id));
  return {
    statusCode: 202,
    body: envelope(
      {
        payment_id: request.payment.id,
        status: request.kind === 'queued' ? 'retry_initiated' : 'retry_scheduled',
        payment_status: request.payment.status,
        next_retry_at: request.dueAt,
        reason: request.reason,
        retry_scheduled: true,
        retry_number: request.retryNumber,
        scheduled_at: request.dueAt,
      },
      requestId,
      merchantId,
    ),
  };
});
