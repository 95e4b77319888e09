import type { CustomerRecord } from '#core/customers';
import { ResourceNotFoundError } from '#core/errors';
import { getCustomerByAnyId } from '#data/customer-repository';

/**
 * The customer in the path, under the caller's merchant only: our `cust_…` id or the provider's
 * customer id. 404 alike for an unknown id and another merchant's, so neither is revealed.
 */
export async function customerInPath(merchantId: string, id: string): Promise<CustomerRecord> {
  const customer = await getCustomerByAnyId(merchantId, id);
  if (customer === undefined) throw new ResourceNotFoundError(`No customer ${id}.`);
  return customer;
}
