import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AmountsByCurrency } from '#core/money';
import type { CrmName } from '#core/crm';
import { env } from '#shared/env';
import { documentClient } from './client';
import { CRM_ENTITY, crmKeys } from './keys';

/**
 * CRM connections, sync log and sync status, and spent OAuth state nonces (keys.ts, "CRM
 * integrations"). Tokens arrive here sealed (the services seal them with the secret box): this
 * module never sees a plaintext token. The sync log holds counts and outcomes, never personal data.
 */
export interface CrmConnectionRecord {
  readonly merchant_id: string;
  readonly crm: CrmName;
  /** The tokens as JSON, sealed with context { merchant_id, purpose: 'crm_tokens', id: crm }. */
  readonly sealed_tokens: string;
  readonly connected_at: string;
  readonly updated_at: string;
}

export type CrmSyncOutcome = 'succeeded' | 'failed';

export interface CrmSyncLogRecord {
  readonly sync_id: string;
  readonly crm: CrmName;
  readonly started_at: string;
  readonly finished_at: string;
  readonly outcome: CrmSyncOutcome;
  /** Customers with an open recovery pushed (as contacts). */
  readonly at_risk_customers: number;
  /** Contacts the CRM accepted, and those it refused. */
  readonly contacts_upserted: number;
  readonly contacts_failed: number;
  readonly at_risk_by_currency: AmountsByCurrency;
  readonly recovered_by_currency: AmountsByCurrency;
  /** The access token was refreshed during the sync (the CRM refused it once). */
  readonly token_refreshed: boolean;
  /** What failed (kind and status, never a token or a body); null on success. */
  readonly error: string | null;
}

/** The latest sync of one CRM, for integrations health. */
export interface CrmSyncStatusRecord {
  readonly crm: CrmName;
  /** When a sync last succeeded (null before the first success). */
  readonly last_synced_at: string | null;
  readonly last_sync_at: string;
  readonly last_outcome: CrmSyncOutcome;
  /** The error of the last sync; null once a sync succeeds. */
  readonly last_error: string | null;
  readonly last_sync_id: string;
}

/** How long a spent state nonce is kept past the state's expiry (TTL deletes lazily, never early). */
const NONCE_RETENTION_MARGIN_SECONDS = 300;
/** Sync log entries kept (DynamoDB TTL `expires_at`). */
export const CRM_SYNC_LOG_RETENTION_DAYS = 90;

/** Records the nonce of a verified state as spent; false when it was spent already (a replay). */
export async function spendCrmStateNonce(merchantId: string, nonce: string, stateExpiresAt: number, now: Date): Promise<boolean> {
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: {
          ...crmKeys.stateNonce(merchantId, nonce),
          entity: CRM_ENTITY.stateNonce,
          created_at: now.toISOString(),
          expires_at: stateExpiresAt + NONCE_RETENTION_MARGIN_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Creates or replaces the merchant's connection to `crm` (a new installation replaces the old tokens). */
export async function putCrmConnection(merchantId: string, crm: CrmName, sealedTokens: string, now: Date): Promise<CrmConnectionRecord> {
  const at = now.toISOString();
  const previous = await getCrmConnection(merchantId, crm);
  const record: CrmConnectionRecord = { merchant_id: merchantId, crm, sealed_tokens: sealedTokens, connected_at: previous?.connected_at ?? at, updated_at: at };
  await documentClient.send(
    new PutCommand({ TableName: env.TABLE_NAME, Item: { ...crmKeys.connection(merchantId, crm), entity: CRM_ENTITY.connection, ...record } }),
  );
  return record;
}

/** Replaces the sealed tokens after a refresh, keeping when the CRM was connected. */
export async function updateCrmTokens(connection: CrmConnectionRecord, sealedTokens: string, now: Date): Promise<CrmConnectionRecord> {
  const record: CrmConnectionRecord = { ...connection, sealed_tokens: sealedTokens, updated_at: now.toISOString() };
  await documentClient.send(
    new PutCommand({
      TableName: env.TABLE_NAME,
      Item: { ...crmKeys.connection(connection.merchant_id, connection.crm), entity: CRM_ENTITY.connection, ...record },
    }),
  );
  return record;
}

/** The merchant's connection to `crm` (consistent read), or undefined when it never connected. */
export async function getCrmConnection(merchantId: string, crm: CrmName): Promise<CrmConnectionRecord | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: crmKeys.connection(merchantId, crm), ConsistentRead: true }));
  if (Item === undefined) return undefined;
  return {
    merchant_id: Item.merchant_id as string,
    crm: Item.crm as CrmName,
    sealed_tokens: Item.sealed_tokens as string,
    connected_at: Item.connected_at as string,
    updated_at: Item.updated_at as string,
  };
}

/** Writes one sync's log entry and the CRM's sync status in one transaction. */
export async function recordCrmSync(merchantId: string, entry: CrmSyncLogRecord): Promise<CrmSyncStatusRecord> {
  const previous = await getCrmSyncStatus(merchantId, entry.crm);
  const status: CrmSyncStatusRecord = {
    crm: entry.crm,
    last_synced_at: entry.outcome === 'succeeded' ? entry.finished_at : (previous?.last_synced_at ?? null),
    last_sync_at: entry.finished_at,
    last_outcome: entry.outcome,
    last_error: entry.error,
    last_sync_id: entry.sync_id,
  };
  const expiresAt = Math.floor(Date.parse(entry.finished_at) / 1000) + CRM_SYNC_LOG_RETENTION_DAYS * 86_400;
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: env.TABLE_NAME,
            Item: {
              ...crmKeys.syncLog(merchantId, entry.crm, entry.started_at, entry.sync_id),
              entity: CRM_ENTITY.syncLog,
              merchant_id: merchantId,
              ...entry,
              expires_at: expiresAt,
            },
          },
        },
        {
          Put: { TableName: env.TABLE_NAME, Item: { ...crmKeys.status(merchantId, entry.crm), entity: CRM_ENTITY.status, merchant_id: merchantId, ...status } },
        },
      ],
    }),
  );
  return status;
}

/** The CRM's sync status (consistent read), or undefined before its first sync. */
export async function getCrmSyncStatus(merchantId: string, crm: CrmName): Promise<CrmSyncStatusRecord | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: crmKeys.status(merchantId, crm), ConsistentRead: true }));
  if (Item === undefined) return undefined;
  return {
    crm: Item.crm as CrmName,
    last_synced_at: (Item.last_synced_at as string | null) ?? null,
    last_sync_at: Item.last_sync_at as string,
    last_outcome: Item.last_outcome as CrmSyncOutcome,
    last_error: (Item.last_error as string | null) ?? null,
    last_sync_id: Item.last_sync_id as string,
  };
}

/** The CRM's latest sync log entries, newest first. */
export async function listCrmSyncLog(merchantId: string, crm: CrmName, limit = 20): Promise<CrmSyncLogRecord[]> {
  const { PK, SKPrefix } = crmKeys.syncLogPrefix(merchantId, crm);
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: env.TABLE_NAME,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
      ScanIndexForward: false,
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => ({
    sync_id: item.sync_id as string,
    crm: item.crm as CrmName,
    started_at: item.started_at as string,
    finished_at: item.finished_at as string,
    outcome: item.outcome as CrmSyncOutcome,
    at_risk_customers: item.at_risk_customers as number,
    contacts_upserted: item.contacts_upserted as number,
    contacts_failed: item.contacts_failed as number,
    at_risk_by_currency: item.at_risk_by_currency as AmountsByCurrency,
    recovered_by_currency: item.recovered_by_currency as AmountsByCurrency,
    token_refreshed: item.token_refreshed as boolean,
    error: (item.error as string | null) ?? null,
  }));
}
