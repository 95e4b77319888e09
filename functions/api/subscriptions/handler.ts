import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { subscriptionsRoutes } from './routes';
import { getInvoiceRecoveryStatus } from './get-invoice-recovery-status';
import { getInvoiceTimeline } from './get-invoice-timeline';
import { getSubscriptionRecoveryStatus } from './get-subscription-recovery-status';
import { listFailedInvoices } from './list-failed-invoices';

/** The subscriptions Lambda: subscription and invoice recovery status, failed invoices, invoice timelines. */
export const handler = createGroupHandler(
  subscriptionsRoutes,
  {
    getSubscriptionRecoveryStatus,
    listFailedInvoices,
    getInvoiceRecoveryStatus,
    getInvoiceTimeline,
  },
  apiKeyAuth,
);
