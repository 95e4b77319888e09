import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { customersRoutes } from './routes';
import { deleteCustomer } from './delete-customer';
import { getCustomer } from './get-customer';
import { getCustomerByEmail } from './get-customer-by-email';
import { listCustomerPayments } from './list-customer-payments';
import { listCustomerRecoveries } from './list-customer-recoveries';
import { listCustomers } from './list-customers';
import { pauseAllCustomerPayments } from './pause-all-customer-payments';
import { resumeAllCustomerPayments } from './resume-all-customer-payments';

/** The customers Lambda: lists, lookups, bulk pause/resume and erasure of a merchant's customers. */
export const handler = createGroupHandler(
  customersRoutes,
  {
    listCustomers,
    getCustomerByEmail,
    getCustomer,
    listCustomerPayments,
    listCustomerRecoveries,
    pauseAllCustomerPayments,
    resumeAllCustomerPayments,
    deleteCustomer,
  },
  apiKeyAuth,
);
