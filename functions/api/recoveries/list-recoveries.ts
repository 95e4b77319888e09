import { PAYMENT_STATUS_FILTERS } from '#core/payments';
import { listPayments } from '#data/payment-queries';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { recoveryView } from './views';
import { listRecoveriesSchemas } from './schemas';

/**
 * GET /api/v1/recoveries: the merchant's recoveries, newest first, offset-paged. `status` takes
 * A's values and B's `active` (pending or retrying); `campaign_id` (B) keeps those enrolled in
 * one campaign. A recovery and its payment are one record, so this is the payment list rendered
 * as recoveries.
 */
export const listRecoveries = defineOperation({ auth: 'api_key', schemas: listRecoveriesSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const { payments, pagination } = await listPayments(
    merchantId,
    {
      ...(query.status === undefined ? {} : { statuses: PAYMENT_STATUS_FILTERS[query.status] }),
      ...(query.campaign_id === undefined ? {} : { campaignId: query.campaign_id }),
    },
    query.page,
    query.per_page,
  );
  return { body: pagedEnvelope(payments.map(recoveryView), pagination, requestId, merchantId) };
});
