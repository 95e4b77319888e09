import { ResourceNotFoundError } from '../../core/errors';
import { getPayment } from '../../data/payment-repository';
import { envelope } from '../../shared/http/responses';
import { defineOperation } from '../operation';
import { recoveryDetailView } from '../views';
import { getRecoverySchemas } from './schemas';

/**
 * GET /api/v1/recoveries/{id}: one recovery with its state history and decline subcategory (A).
 * The id may be the recovery's (`rec_…`) or its payment's (`pe_…`). B's current_step and
 * total_steps are null until campaigns run steps.
 */
export const getRecovery = defineOperation(getRecoverySchemas, async ({ params, caller, requestId }) => {
  const merchantId = caller?.merchantId as string;
  const payment = await getPayment(merchantId, params.id);
  if (payment === undefined) throw new ResourceNotFoundError(`No recovery ${params.id}.`, { param: 'id' });
  return { body: envelope(recoveryDetailView(payment), requestId, merchantId) };
});
