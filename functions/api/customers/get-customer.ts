import { envelope } from '../pipeline/responses';
import { defineOperation } from '../operation';
import { customerView } from '../views';
import { customerInPath, merchantIdOf } from './customer-lookup';
import { getCustomerSchemas } from './schemas';

/** GET /api/v1/customers/{id}: one customer, by our `cust_…` id or the provider's customer id (B). */
export const getCustomer = defineOperation(getCustomerSchemas, async ({ params, caller, requestId }) => {
  const merchantId = merchantIdOf(caller);
  const customer = await customerInPath(merchantId, params.id);
  return { body: envelope(customerView(customer), requestId, merchantId) };
});
