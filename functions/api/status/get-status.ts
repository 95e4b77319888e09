import { getMerchantCached } from '../../data/merchant-repository';
import { env } from '../../shared/env';
import { meta } from '../pipeline/responses';
import { defineOperation } from '../operation';
import { getStatusSchemas } from './schemas';

/**
 * GET /api/v1/status: answers without a key; with a valid key, the merchant behind it. One
 * record carries A's fields (connected, merchant_name, plan_tier, auth_strategy) and B's
 * (status, version, authenticated).
 */
export const getStatus = defineOperation(getStatusSchemas, async ({ caller, requestId }) => {
  const merchant = caller === undefined ? undefined : await getMerchantCached(caller.merchantId);
  const now = new Date();
  return {
    body: {
      data: {
        connected: merchant !== undefined,
        merchant_id: merchant?.id ?? null,
        merchant_name: merchant?.name ?? null,
        plan_tier: merchant?.plan_tier ?? null,
        auth_strategy: caller === undefined ? 'none' : 'api_key',
        status: 'ok',
        version: env.SERVICE_VERSION,
        timestamp: now.toISOString(),
        authenticated: caller !== undefined,
      },
      meta: meta(requestId, merchant?.id, now),
    },
  };
});
