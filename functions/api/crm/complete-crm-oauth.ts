import type { CrmName } from '#core/crm';
import { completeCrmInstallation } from '#services/crm';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { completeCrmOauthSchemas } from './schemas';
import { crmConnectionView } from './views';

/**
 * POST /api/v1/crm_a/oauth/callback and /crm_b/oauth/callback (public): `{ code, state }` of the
 * installation redirect. The signed state names the merchant (no API key); the tokens are stored
 * sealed. Bad, expired, other-CRM or replayed state: 400 on `state`; a refused code: 400 on `code`.
 */
const completeFor = (crm: CrmName) =>
  defineOperation({ auth: 'public', schemas: completeCrmOauthSchemas }, async ({ body, requestId }) => {
    const connection = await completeCrmInstallation(crm, body.code, body.state);
    return { body: envelope(crmConnectionView(connection), requestId, connection.merchant_id) };
  });

export const completeCrmAOauth = completeFor('crm_a');
export const completeCrmBOauth = completeFor('crm_b');
