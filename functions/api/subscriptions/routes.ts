import { type RouteDef, READ, v1 } from '#api/route-rows';
import { getInvoiceRecoveryStatusSchemas, getInvoiceTimelineSchemas, getSubscriptionRecoveryStatusSchemas, listFailedInvoicesSchemas } from './schemas';

/** The `subscriptions` group's rows of the route table: its Lambda serves exactly these. */
export const subscriptionsRoutes: readonly RouteDef[] = [
  v1('subscriptions', 'GET', '/subscriptions/{id}', 'getSubscriptionRecoveryStatus', READ, 'Recovery status of a subscription', {
    schemas: getSubscriptionRecoveryStatusSchemas,
  }),
  v1('subscriptions', 'GET', '/subscriptions/{id}/failed-invoices', 'listFailedInvoices', READ, 'Failed invoices of a subscription', {
    schemas: listFailedInvoicesSchemas,
  }),
  v1('subscriptions', 'GET', '/invoices/{id}', 'getInvoiceRecoveryStatus', READ, 'Recovery status of an invoice', { schemas: getInvoiceRecoveryStatusSchemas }),
  v1('subscriptions', 'GET', '/invoices/{id}/timeline', 'getInvoiceTimeline', READ, 'Timeline of an invoice', { schemas: getInvoiceTimelineSchemas }),
];
