import { type RouteDef, v1 } from '#api/route-rows';
import { getPaymentSchemas, getPaymentTimelineSchemas, listPaymentsSchemas, pausePaymentSchemas, resumePaymentSchemas, retryPaymentSchemas } from './schemas';

/** The `payments` group's rows of the route table: its Lambda serves exactly these. */
export const paymentsRoutes: readonly RouteDef[] = [
  v1('payments', 'GET', '/payments', 'listPayments', ['read', 'read:payments'], 'List failed payments', { schemas: listPaymentsSchemas }),
  v1('payments', 'GET', '/payments/{id}', 'getPayment', ['read', 'read:payments'], 'One payment, by id or provider charge id', { schemas: getPaymentSchemas }),
  v1('payments', 'GET', '/payments/{id}/timeline', 'getPaymentTimeline', ['read', 'read:payments'], 'Timeline of a payment', {
    schemas: getPaymentTimelineSchemas,
  }),
  v1('payments', 'POST', '/payments/{id}/retry', 'retryPayment', ['write', 'write:payments'], 'Retry a payment now or at the next allowed time', {
    schemas: retryPaymentSchemas,
  }),
  v1('payments', 'POST', '/payments/{id}/pause', 'pausePayment', ['write', 'write:payments'], 'Pause recovery of a payment', { schemas: pausePaymentSchemas }),
  v1('payments', 'POST', '/payments/{id}/resume', 'resumePayment', ['write', 'write:payments'], 'Resume recovery of a payment', {
    schemas: resumePaymentSchemas,
  }),
];
