import { ResourceNotFoundError } from '#core/errors';
import { eraseCustomer } from '#services/erase-customer';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { customerInPath } from './customer-lookup';
import { deleteCustomerSchemas } from './schemas';

/**
 * DELETE /api/v1/customers/{id}: irreversible erasure of everything about the customer (GDPR
 * Art. 17), see `eraseCustomer`. A's answer `{ deleted, customer_id, records_deleted }` (B's is
 * its first two fields). A second DELETE finds nothing: 404.
 *
 * Erasure is final: the customer's tombstone (hashes of its email and provider customer ids,
 * nothing else) refuses later events for it on both ingest paths, and the answers stored under
 * Idempotency-Keys that named the customer are erased with it, so their replay runs again.
 * Sent with an Idempotency-Key, this response is itself kept 24 h for replay, and so is the
 * customer's (opaque) id in it; nothing else about the customer is.
 */
export const deleteCustomer = defineOperation({ auth: 'api_key', schemas: deleteCustomerSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const customer = await customerInPath(merchantId, params.id);
  const erased = await eraseCustomer(merchantId, customer.id);
  if (erased === undefined) throw new ResourceNotFoundError(`No customer ${params.id}.`);
  return { body: envelope({ deleted: true, customer_id: customer.id, records_deleted: erased.recordsDeleted }, requestId, merchantId) };
});
