import { ResourceNotFoundError } from '#core/errors';
import { getCustomerByEmail as findByEmail } from '#data/customer-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { customerView, recoveryStatsView } from './views';
import { getCustomerByEmailSchemas } from './schemas';

/**
 * GET /api/v1/customers/by-email/{email} (B): the customer with this email (URL-encoded in the
 * path, compared case-insensitively) and its recovery_stats. Two GetItems: the email reference,
 * then the customer.
 */
export const getCustomerByEmail = defineOperation({ auth: 'api_key', schemas: getCustomerByEmailSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const customer = await findByEmail(merchantId, params.email);
  if (customer === undefined) throw new ResourceNotFoundError('No customer with this email.');
  return { body: envelope({ ...customerView(customer), recovery_stats: recoveryStatsView(customer) }, requestId, merchantId) };
});
