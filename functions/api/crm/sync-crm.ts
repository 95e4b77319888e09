import type { CrmName } from '#core/crm';
import { syncCrm } from '#services/crm';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { syncCrmSchemas } from './schemas';
import { crmSyncView } from './views';

/**
 * POST /api/v1/crm_a/sync and /crm_b/sync (scope write): pushes the merchant's customers at risk
 * (open recoveries, amounts at risk and recovered per currency) with the merchant's own tokens,
 * and answers the sync log entry. 409 when the CRM is not connected; a CRM failure is answered
 * 200 with `status: failed` and `error` (logged), never a 500.
 */
const syncFor = (crm: CrmName) =>
  defineOperation({ auth: 'api_key', schemas: syncCrmSchemas }, async ({ principal, requestId }) => {
    const result = await syncCrm(principal.merchantId, crm);
    return { body: envelope(crmSyncView(result), requestId, principal.merchantId) };
  });

export const syncCrmA = syncFor('crm_a');
export const syncCrmB = syncFor('crm_b');
