import { getMerchantCached } from '#data/merchant-repository';
import { env } from '#shared/env';
import { meta } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getStatusSchemas } from './schemas';

/**
 * GET /api/v1/status: answers without a key; with a valid key, the merchant behind it. One
 * record carries A's fields (connected, merchant_name, plan_tier, auth_strategy) and B's
 * (status, version, authenticated).
 */
export const getStatus = defineOperation({ auth: 'optional_api_key', schemas: getStatusSchemas }, async ({ principal, requestId }) => {
  const merchant = principal.kind === 'api_key' ? await getMerchantCached(principal.merchantId) : undefined;
  const now = new Date();
  return {
    body: {
      data: {
        connected: merchant !== undefined,
        merchant_id: merchant?.id ?? null,
        merchant_name: merchant?.name ?? null,
        plan_tier: merchant?.plan_tier ?? null,
        auth_strategy: principal.kind === 'api_key' ? 'api_key' : 'none',
        status: 'ok',
        version: env.SERVICE_VERSION,
        timestamp: now.toISOString(),
        authenticated: principal.kind === 'api_key',
      },
      meta: meta(requestId, merchant?.id, now),
    },
  };
});
