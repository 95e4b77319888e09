import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { customerView } from './views';
import { customerInPath } from './customer-lookup';
import { getCustomerSchemas } from './schemas';

/** GET /api/v1/customers/{id}: one customer, by our `cust_…` id or the provider's customer id (B). */
export const getCustomer = defineOperation({ auth: 'api_key', schemas: getCustomerSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const customer = await customerInPath(merchantId, params.id);
  return { body: envelope(customerView(customer), requestId, merchantId) };
});
