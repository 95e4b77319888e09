import { ResourceNotFoundError } from '#core/errors';
import { getCampaign } from '#data/campaign-repository';
import { getEnrollment } from '#data/enrollment-repository';
import { getPayment } from '#data/payment-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { recoveryDetailView } from './views';
import { getRecoverySchemas } from './schemas';

/**
 * GET /api/v1/recoveries/{id}: one recovery with its state history and decline subcategory (A).
 * The id may be the recovery's (`rec_…`) or its payment's (`pe_…`). B's campaign fields come from
 * its enrollment (one GetItem) and the campaign's steps (one more, when enrolled).
 */
export const getRecovery = defineOperation({ auth: 'api_key', schemas: getRecoverySchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const payment = await getPayment(merchantId, params.id);
  if (payment === undefined) throw new ResourceNotFoundError(`No recovery ${params.id}.`, { param: 'id' });
  const enrollment = await getEnrollment(merchantId, payment.id);
  const campaign = enrollment === undefined ? undefined : await getCampaign(merchantId, enrollment.campaign_id);
  return { body: envelope(recoveryDetailView(payment, enrollment, campaign?.steps), requestId, merchantId) };
});
