import { type CrmContact, CrmError, type CrmTokens } from '#core/crm';
import { batchesOf, CRM_BATCH_SIZE, crmClientSecret, crmRequest, crmSetting, tokenRequest, tokensOf, urlWithQuery } from './http';
import type { CrmAdapter } from './port';

/**
 * CRM A, shaped like HubSpot's API (origin CRM_A_API_BASE_URL, default https://api.hubapi.com):
 * - tokens: `POST /oauth/v1/token` (form: grant_type authorization_code or refresh_token,
 *   client_id, client_secret, redirect_uri, code | refresh_token) → { access_token,
 *   refresh_token, expires_in } (https://developers.hubspot.com/docs/api/oauth/tokens);
 * - contacts: `POST /crm/v3/objects/contacts/batch/upsert` with `Authorization: Bearer`,
 *   `{ inputs: [{ idProperty: 'email', id, properties }] }` → `{ status, results }`
 *   (https://developers.hubspot.com/docs/api/crm/contacts), 100 per request.
 * - consent: `GET <CRM_A_AUTHORIZE_BASE_URL>/oauth/authorize?client_id&redirect_uri&scope&state`
 *   (default https://app.hubspot.com; https://developers.hubspot.com/docs/api/oauth-quickstart-guide).
 * Contact properties: email, firstname/lastname from the name, and `recovery_*` properties
 * (our customer id, open payments, amounts at risk and recovered per currency as JSON).
 */
const crm = 'crm_a' as const;

/** `oauth` (every HubSpot app) and `crm.objects.contacts.write`, which the batch upsert requires; nothing more. */
const CRM_A_SCOPES = ['oauth', 'crm.objects.contacts.write'] as const;

const token = async (form: Record<string, string>, now: Date, previous?: CrmTokens): Promise<CrmTokens> =>
  tokensOf(
    await tokenRequest(crm, `${crmSetting(crm, 'CRM_A_API_BASE_URL')}/oauth/v1/token`, {
      client_id: crmSetting(crm, 'CRM_A_CLIENT_ID'),
      client_secret: await crmClientSecret(crm),
      ...form,
    }),
    now,
    previous,
  );

function propertiesOf(contact: CrmContact): Record<string, string> {
  const [first, ...rest] = (contact.name ?? '').trim().split(/\s+/);
  return {
    email: contact.email,
    ...(first ? { firstname: first } : {}),
    ...(rest.length > 0 ? { lastname: rest.join(' ') } : {}),
    recovery_customer_id: contact.customer_id,
    recovery_open_payments: String(contact.open_payments),
    recovery_at_risk_by_currency: JSON.stringify(contact.at_risk_by_currency),
    recovery_recovered_by_currency: JSON.stringify(contact.recovered_by_currency),
  };
}

export const crmAHubSpot: CrmAdapter = {
  crm,
  authorizeUrl: (state) =>
    urlWithQuery(`${crmSetting(crm, 'CRM_A_AUTHORIZE_BASE_URL')}/oauth/authorize`, {
      client_id: crmSetting(crm, 'CRM_A_CLIENT_ID'),
      redirect_uri: crmSetting(crm, 'CRM_A_REDIRECT_URI'),
      scope: CRM_A_SCOPES.join(' '),
      state,
    }),
  exchangeCode: (code, now) => token({ grant_type: 'authorization_code', redirect_uri: crmSetting(crm, 'CRM_A_REDIRECT_URI'), code }, now),
  refresh: (tokens, now) => {
    if (tokens.refresh_token === undefined) return Promise.reject(new CrmError(crm, 'unauthorized', 'no refresh token'));
    return token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, now, tokens);
  },
  async upsertContacts(tokens, contacts) {
    let upserted = 0;
    for (const batch of batchesOf(contacts, CRM_BATCH_SIZE)) {
      const answer = await crmRequest(crm, `${crmSetting(crm, 'CRM_A_API_BASE_URL')}/crm/v3/objects/contacts/batch/upsert`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ inputs: batch.map((contact) => ({ idProperty: 'email', id: contact.email, properties: propertiesOf(contact) })) }),
      });
      const results = (answer as { results?: unknown } | undefined)?.results;
      if (!Array.isArray(results)) throw new CrmError(crm, 'bad_response', 'batch upsert answer without results');
      upserted += results.length;
    }
    return { upserted, failed: contacts.length - upserted };
  },
};
