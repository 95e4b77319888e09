import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { paymentsRoutes } from './routes';
import { getPayment } from './get-payment';
import { getPaymentTimeline } from './get-payment-timeline';
import { listPayments } from './list-payments';
import { pausePayment } from './pause-payment';
import { resumePayment } from './resume-payment';
import { retryPayment } from './retry-payment';

/** The payments Lambda: list, read and timeline; retry, pause and resume through the status machine. */
export const handler = createGroupHandler(
  paymentsRoutes,
  { listPayments, getPayment, getPaymentTimeline, retryPayment, pausePayment, resumePayment },
  apiKeyAuth,
);
