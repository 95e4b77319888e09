import type { CrmConnectionRecord } from '#data/crm-repository';
import type { CrmSyncResult } from '#services/crm';

/** A connection as answered: never its tokens. */
export const crmConnectionView = (connection: CrmConnectionRecord) => ({
  crm: connection.crm,
  connected: true,
  connected_at: connection.connected_at,
  updated_at: connection.updated_at,
});

export const crmSyncView = ({ entry, status, truncated }: CrmSyncResult) => ({
  sync_id: entry.sync_id,
  crm: entry.crm,
  status: entry.outcome,
  started_at: entry.started_at,
  finished_at: entry.finished_at,
  at_risk_customers: entry.at_risk_customers,
  contacts_upserted: entry.contacts_upserted,
  contacts_failed: entry.contacts_failed,
  truncated,
  at_risk_by_currency: entry.at_risk_by_currency,
  recovered_by_currency: entry.recovered_by_currency,
  token_refreshed: entry.token_refreshed,
  error: entry.error,
  last_synced_at: status.last_synced_at,
});
