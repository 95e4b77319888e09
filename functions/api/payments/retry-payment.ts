import { attemptRetry } from '../../jobs/attempt-retry';
import { envelope } from '../../shared/http/responses';
import { defineOperation } from '../operation';
import { findPayment } from './find-payment';
import { retryPaymentSchemas } from './schemas';

/**
 * POST /api/v1/payments/{id}/retry: runs one attempt now through the merchant's gateway
 * (jobs/attempt-retry.ts), unless the merchant's quiet hours or a card-network cap forbid it now,
 * in which case the retry is scheduled for the first allowed time and that time is answered.
 * 409 where the spec refuses a retry: recovered, terminal or paused, at max_retries, a
 * hard_customer decline still waiting for a card update, or an attempt already in flight.
 *
 * 202 with one record for both forms: A's {payment_id, status: retry_initiated, next_retry_at}
 * and B's {retry_scheduled, retry_number, scheduled_at}, plus what happened: attempted, outcome,
 * payment_status and the reason.
 */
export const retryPayment = defineOperation(retryPaymentSchemas, async ({ params, caller, requestId }) => {
  const merchantId = caller?.merchantId as string;
  const payment = await findPayment(merchantId, params.id);
  const result = await attemptRetry(merchantId, payment.id, payment.psp, { now: new Date(), mode: 'now' });
  const after = result.kind === 'skipped' ? payment : result.payment;
  const attempted = result.kind === 'attempted';
  const scheduled = after.status === 'retrying' && after.next_retry_at !== null;
  return {
    statusCode: 202,
    body: envelope(
      {
        payment_id: after.id,
        status: 'retry_initiated',
        attempted,
        outcome: attempted ? result.outcome : null,
        payment_status: after.status,
        next_retry_at: scheduled ? after.next_retry_at : null,
        reason: after.state_history.at(-1)?.reason ?? '',
        retry_scheduled: scheduled,
        retry_number: attempted && result.outcome !== 'gateway_error' ? after.retry_count : after.retry_count + 1,
        scheduled_at: scheduled ? after.next_retry_at : null,
      },
      requestId,
      merchantId,
    ),
  };
});
