import { type CrmContact, CrmError, type CrmTokens } from '#core/crm';
import { batchesOf, CRM_BATCH_SIZE, crmClientSecret, crmRequest, crmSetting, tokenRequest, tokensOf, urlWithQuery } from './http';
import type { CrmAdapter } from './port';

/**
 * CRM B, shaped like Salesforce's API:
 * - tokens: `POST <CRM_B_LOGIN_BASE_URL>/services/oauth2/token` (form; default login origin
 *   https://login.salesforce.com) → { access_token, refresh_token, instance_url } (a refresh
 *   answer carries no new refresh token: the old one is kept);
 * - contacts: `PATCH <instance_url>/services/data/v60.0/composite/sobjects/Contact/Recovery_Customer_Id__c`
 *   (sObject Collections upsert by external id, `allOrNone: false`) with `Authorization: Bearer`
 *   → one `{ id, success, created, errors }` per record, 100 records per request.
 * - consent: `GET <CRM_B_LOGIN_BASE_URL>/services/oauth2/authorize?response_type=code&client_id&redirect_uri&scope&state`
 *   (the OAuth 2.0 web server flow).
 * The instance URL comes from the token answer of the configured login origin, over HTTPS on AWS.
 */
const crm = 'crm_b' as const;

/** `api` (the REST API the upsert calls) and `refresh_token` (without it Salesforce issues no refresh token). */
const CRM_B_SCOPES = ['api', 'refresh_token'] as const;
export const CRM_B_API_VERSION = 'v60.0';
export const CRM_B_EXTERNAL_ID_FIELD = 'Recovery_Customer_Id__c';

const token = async (form: Record<string, string>, now: Date, previous?: CrmTokens): Promise<CrmTokens> => {
  const tokens = tokensOf(
    await tokenRequest(crm, `${crmSetting(crm, 'CRM_B_LOGIN_BASE_URL')}/services/oauth2/token`, {
      client_id: crmSetting(crm, 'CRM_B_CLIENT_ID'),
      client_secret: await crmClientSecret(crm),
      ...form,
    }),
    now,
    previous,
  );
  if (tokens.instance_url === undefined || !URL.canParse(tokens.instance_url)) throw new CrmError(crm, 'bad_response', 'token answer without instance_url');
  // The API origin comes from the token answer: never let an HTTPS login hand us a plain-HTTP one.
  if (new URL(crmSetting(crm, 'CRM_B_LOGIN_BASE_URL')).protocol === 'https:' && new URL(tokens.instance_url).protocol !== 'https:')
    throw new CrmError(crm, 'bad_response', 'token answer with an instance_url that is not https');
  return tokens;
};

function recordOf(contact: CrmContact): Record<string, unknown> {
  const name = (contact.name ?? '').trim();
  const [first, ...rest] = name.split(/\s+/);
  return {
    attributes: { type: 'Contact' },
    [CRM_B_EXTERNAL_ID_FIELD]: contact.customer_id,
    Email: contact.email,
    // LastName is required on a Contact: the email stands in when the name is unknown.
    LastName: rest.length > 0 ? rest.join(' ') : first || contact.email,
    ...(rest.length > 0 && first ? { FirstName: first } : {}),
    Recovery_Open_Payments__c: contact.open_payments,
    Recovery_At_Risk_By_Currency__c: JSON.stringify(contact.at_risk_by_currency),
    Recovery_Recovered_By_Currency__c: JSON.stringify(contact.recovered_by_currency),
  };
}

export const crmBSalesforce: CrmAdapter = {
  crm,
  authorizeUrl: (state) =>
    urlWithQuery(`${crmSetting(crm, 'CRM_B_LOGIN_BASE_URL')}/services/oauth2/authorize`, {
      response_type: 'code',
      client_id: crmSetting(crm, 'CRM_B_CLIENT_ID'),
      redirect_uri: crmSetting(crm, 'CRM_B_REDIRECT_URI'),
      scope: CRM_B_SCOPES.join(' '),
      state,
    }),
  exchangeCode: (code, now) => token({ grant_type: 'authorization_code', redirect_uri: crmSetting(crm, 'CRM_B_REDIRECT_URI'), code }, now),
  refresh: (tokens, now) => {
    if (tokens.refresh_token === undefined) return Promise.reject(new CrmError(crm, 'unauthorized', 'no refresh token'));
    return token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, now, tokens);
  },
  async upsertContacts(tokens, contacts) {
    if (tokens.instance_url === undefined) throw new CrmError(crm, 'unauthorized', 'connection has no instance_url');
    const origin = tokens.instance_url.replace(/\/+$/, '');
    let upserted = 0;
    for (const batch of batchesOf(contacts, CRM_BATCH_SIZE)) {
      const answer = await crmRequest(crm, `${origin}/services/data/${CRM_B_API_VERSION}/composite/sobjects/Contact/${CRM_B_EXTERNAL_ID_FIELD}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ allOrNone: false, records: batch.map(recordOf) }),
      });
      if (!Array.isArray(answer)) throw new CrmError(crm, 'bad_response', 'collection upsert answer is not an array');
      upserted += answer.filter((result) => (result as { success?: unknown }).success === true).length;
    }
    return { upserted, failed: contacts.length - upserted };
  },
};
