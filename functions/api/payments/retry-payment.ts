import { applyPaymentEvent } from '../../data/payment-repository';
import { envelope } from '../../shared/http/responses';
import { defineOperation } from '../operation';
import { transitionIdOf } from './find-payment';
import { retryPaymentSchemas } from './schemas';

/**
 * POST /api/v1/payments/{id}/retry: checks the retry is allowed and schedules it for now; the
 * retry engine (every-minute job) makes the attempt. 409 when the payment is recovered, terminal
 * or paused, at max_retries, or a hard_customer decline still waiting for a card update (the
 * status machine, core/payments.ts). Quiet hours, campaign-level retry logic and the card
 * networks' reattempt caps come with the retry engine (a later issue), which applies them when it
 * picks the scheduled retry up; this request does not check them yet.
 *
 * 202 with one record for both forms: A's {payment_id, status: retry_initiated, next_retry_at}
 * and B's {retry_scheduled, retry_number, scheduled_at}.
 */
export const retryPayment = defineOperation(retryPaymentSchemas, async ({ params, caller, requestId }) => {
  const merchantId = caller?.merchantId as string;
  const now = new Date();
  const at = now.toISOString();
  const { after } = await applyPaymentEvent(merchantId, await transitionIdOf(merchantId, params.id), { type: 'schedule_retry', at, reason: 'Retry requested through the API' }, now);
  return {
    statusCode: 202,
    body: envelope(
      {
        payment_id: after.id,
        status: 'retry_initiated',
        next_retry_at: at,
        retry_scheduled: true,
        retry_number: after.retry_count + 1,
        scheduled_at: at,
      },
      requestId,
      merchantId,
    ),
  };
});
