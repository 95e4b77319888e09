import { recommendStrategyFor } from '#services/vectors';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { recommendStrategySchemas } from './schemas';

/** GET /api/v1/vectors/recommend-strategy/{payment_id}: what recovered the payment's nearest past recoveries. */
export const recommendStrategy = defineOperation({ auth: 'api_key', schemas: recommendStrategySchemas }, async ({ principal, params, requestId }) => {
  const merchantId = principal.merchantId;
  return { body: envelope(await recommendStrategyFor(merchantId, params.payment_id), requestId, merchantId) };
});
