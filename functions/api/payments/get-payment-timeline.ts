import { paymentTimeline } from '#data/payment-queries';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { timelineEventView } from './views';
import { findPayment } from './find-payment';
import { getPaymentTimelineSchemas } from './schemas';

/**
 * GET /api/v1/payments/{id}/timeline, oldest first. One body for both forms: A reads
 * `data.events[]` with `detail` text, B reads `data.payment_id` and `details` objects. Types are
 * the spec's words (payment_failed, retry_scheduled, retry_succeeded, retry, status_change; see
 * timelineTypeOf in ../views.ts), the recorded finer type in `details.kind`.
 */
export const getPaymentTimeline = defineOperation({ auth: 'api_key', schemas: getPaymentTimelineSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const payment = await findPayment(merchantId, params.id);
  const events = await paymentTimeline(merchantId, payment);
  return { body: envelope({ payment_id: payment.id, events: events.map((e) => timelineEventView(e, 'payment')) }, requestId, merchantId) };
});
