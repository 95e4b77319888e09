import * as z from '#shared/zod';
import { CRM_STATE_TTL_SECONDS } from '#core/crm';
import { ResponseMeta } from '#api/envelope-schemas';

const Timestamp = z.string().clone().register(z.globalRegistry, { format: 'date-time' });
const Amounts = z
  .record(z.string(), z.number().check(z.int()))
  .clone()
  .register(z.globalRegistry, { description: 'Smallest currency unit, by lowercase currency (never summed across currencies).' });

export const CrmOauthCallbackBody = z.object({
  code: z
    .string()
    .check(z.minLength(1), z.maxLength(2048))
    .clone()
    .register(z.globalRegistry, { description: 'The authorization code the CRM gave the installation redirect.' }),
  state: z
    .string()
    .check(z.minLength(1), z.maxLength(2048))
    .clone()
    .register(z.globalRegistry, {
      description: `The state this service issued when the installation started: HMAC-signed, naming the merchant and the CRM, valid ${CRM_STATE_TTL_SECONDS / 60} minutes and once.`,
    }),
});

export const CrmConnectionData = z
  .object({
    crm: z.enum(['crm_a', 'crm_b']),
    connected: z.boolean(),
    connected_at: Timestamp.clone().register(z.globalRegistry, { description: 'When the CRM was first connected.' }),
    updated_at: Timestamp.clone().register(z.globalRegistry, { description: 'When its tokens were last stored (installation or refresh).' }),
  })
  .clone()
  .register(z.globalRegistry, { id: 'CrmConnection', description: 'A CRM connection. Its tokens are stored encrypted and never shown.' });

export const CrmConnectionResponse = z.object({ data: CrmConnectionData, meta: ResponseMeta });

export const CrmSyncData = z
  .object({
    sync_id: z.string(),
    crm: z.enum(['crm_a', 'crm_b']),
    status: z
      .enum(['succeeded', 'failed'])
      .clone()
      .register(z.globalRegistry, { description: '`failed`: the CRM refused or could not be reached; `error` says how.' }),
    started_at: Timestamp,
    finished_at: Timestamp,
    at_risk_customers: z.number().check(z.int()).clone().register(z.globalRegistry, { description: 'Customers with an open recovery pushed as contacts.' }),
    contacts_upserted: z.number().check(z.int()),
    contacts_failed: z.number().check(z.int()),
    truncated: z.boolean().clone().register(z.globalRegistry, { description: 'More customers were at risk than one sync pushes (5,000, newest first).' }),
    at_risk_by_currency: Amounts,
    recovered_by_currency: Amounts.clone().register(z.globalRegistry, { description: 'Recovered so far from the customers pushed, by currency.' }),
    token_refreshed: z.boolean(),
    error: z.nullable(z.string()),
    last_synced_at: z
      .nullable(Timestamp)
      .clone()
      .register(z.globalRegistry, { description: 'When a sync of this CRM last succeeded (this one included); null before any.' }),
  })
  .clone()
  .register(z.globalRegistry, { id: 'CrmSync', description: 'One push of recovery data to a CRM, as its sync log records it (counts only).' });

export const CrmSyncResponse = z.object({ data: CrmSyncData, meta: ResponseMeta });

export const completeCrmOauthSchemas = { body: CrmOauthCallbackBody, responses: { 200: CrmConnectionResponse } } as const;
export const syncCrmSchemas = { responses: { 200: CrmSyncResponse } } as const;
