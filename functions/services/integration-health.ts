import { CRMS, type CrmName } from '#core/crm';
import { isPsp, PSPS } from '#core/providers';
import { type CrmSyncLogRecord, getCrmConnection, getCrmSyncStatus, listCrmSyncLog } from '#data/crm-repository';
import type { DeadLetteredEvent } from '#data/dead-letter-repository';
import {
  listConfiguredProviders,
  listDeadLettersSince,
  listDeliveriesSince,
  listSignatureFailures,
  type ReceivedDelivery,
  type SignatureFailureBucket,
} from '#data/integration-health-repository';

/** The CRMs an integration id may name besides the 13 providers. */
export const CRM_INTEGRATIONS = CRMS;
export const INTEGRATION_IDS: readonly string[] = [...PSPS, ...CRM_INTEGRATIONS];
const isCrm = (id: string): id is CrmName => (CRMS as readonly string[]).includes(id);
export const isIntegrationId = (value: string): boolean => INTEGRATION_IDS.includes(value);

/** The window of received events and signature failures. */
export const HEALTH_WINDOW_MS = 24 * 3600 * 1000;
/** The window of dead-lettered events: their retention (dead-letter-repository.ts). */
export const DEAD_LETTER_WINDOW_MS = 30 * 24 * 3600 * 1000;
/** The most entries GET /integrations/{id}/errors lists. */
export const MAX_ERRORS_LISTED = 100;

export interface IntegrationError {
  readonly type: 'signature_failure' | 'dead_lettered' | 'sync_failed';
  /** `invalid_signature`, the dead-lettered event's reason code, or a failed CRM sync's error. */
  readonly code: string;
  readonly at: string;
}

export interface IntegrationHealth {
  readonly id: string;
  readonly type: 'psp' | 'crm';
  readonly connected: boolean;
  readonly status: 'healthy' | 'degraded' | 'not_connected';
  readonly last_event_received_at: string | null;
  readonly events_24h: number;
  readonly events_24h_complete: boolean;
  readonly signature_failures_24h: number;
  readonly dead_lettered_events: number;
  readonly dead_lettered_pending: number;
  readonly last_error: IntegrationError | null;
}

export type IntegrationErrorEntry =
  | { readonly type: 'signature_failure'; readonly code: 'invalid_signature'; readonly at: string; readonly hour: string; readonly count: number }
  | {
      readonly type: 'dead_lettered';
      readonly code: string;
      readonly at: string;
      readonly id: string;
      readonly event_ids: readonly string[];
      readonly webhook_log_id: string;
      readonly redriven_at: string | null;
      readonly redrive_outcome: string | null;
    }
  | { readonly type: 'sync_failed'; readonly code: string; readonly at: string; readonly id: string };

/** What the health routes read for a merchant: three time-bounded Queries and one of its provider secrets' keys (the errors route: the two error Queries only). */
interface HealthData {
  readonly configured: Set<string>;
  readonly deliveries: readonly ReceivedDelivery[];
  /** False when the day's deliveries were more than one request reads: counts are lower bounds. */
  readonly deliveriesComplete: boolean;
  readonly failures: readonly SignatureFailureBucket[];
  readonly deadLetters: readonly DeadLetteredEvent[];
}

async function healthData(merchantId: string, now: Date, withDeliveries = true): Promise<HealthData> {
  const since = new Date(now.getTime() - HEALTH_WINDOW_MS);
  const [configured, deliveries, failures, deadLetters] = await Promise.all([
    withDeliveries ? listConfiguredProviders(merchantId) : new Set<string>(),
    withDeliveries ? listDeliveriesSince(merchantId, since) : { deliveries: [], complete: true },
    // The hour buckets that overlap the window: the current hour and the 24 before it, each counted whole.
    listSignatureFailures(merchantId, since, now),
    listDeadLettersSince(merchantId, new Date(now.getTime() - DEAD_LETTER_WINDOW_MS)),
  ]);
  return { configured, deliveries: deliveries.deliveries, deliveriesComplete: deliveries.complete, failures, deadLetters };
}

const latest = <T extends { readonly at: string }>(entries: readonly T[]): T | null =>
  entries.reduce<T | null>((best, entry) => (best === null || entry.at > best.at ? entry : best), null);

function errorsOf(id: string, data: HealthData): IntegrationErrorEntry[] {
  const failures: IntegrationErrorEntry[] = data.failures
    .filter((bucket) => bucket.psp === id)
    .map((bucket) => ({ type: 'signature_failure', code: 'invalid_signature', at: bucket.last_at, hour: bucket.hour, count: bucket.count }));
  const deadLettered: IntegrationErrorEntry[] = data.deadLetters
    .filter((event) => event.provider === id)
    .map((event) => ({
      type: 'dead_lettered',
      code: event.reason,
      at: event.dead_lettered_at,
      id: event.id,
      event_ids: event.event_ids,
      webhook_log_id: event.webhook_log_id,
      redriven_at: event.redriven_at ?? null,
      redrive_outcome: event.redrive_outcome ?? null,
    }));
  return [...failures, ...deadLettered].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** The most recent syncs a CRM's health and errors read (its sync log, newest first). */
const CRM_SYNCS_READ = 50;

/** What a CRM's health reads: its connection, its sync status and its recent sync log (two GetItems and one Query). */
interface CrmData {
  readonly connected: boolean;
  readonly lastSyncAt: string | null;
  readonly lastOutcome: 'succeeded' | 'failed' | null;
  readonly syncs: readonly CrmSyncLogRecord[];
}

async function crmData(merchantId: string, crm: CrmName): Promise<CrmData> {
  const [connection, status, syncs] = await Promise.all([
    getCrmConnection(merchantId, crm),
    getCrmSyncStatus(merchantId, crm),
    listCrmSyncLog(merchantId, crm, CRM_SYNCS_READ),
  ]);
  return { connected: connection !== undefined, lastSyncAt: status?.last_sync_at ?? null, lastOutcome: status?.last_outcome ?? null, syncs };
}

/** A CRM's failed syncs, newest first (the sync log's error kind and HTTP status; never contact data). */
const crmErrorsOf = (data: CrmData): IntegrationErrorEntry[] =>
  data.syncs
    .filter((sync) => sync.outcome === 'failed')
    .map((sync) => ({ type: 'sync_failed', code: sync.error ?? 'sync_failed', at: sync.finished_at, id: sync.sync_id }));

/**
 * A CRM's health: connected once its OAuth callback stored tokens; an event is a sync (the last
 * one, and those started in the last 24 h); degraded when the last sync failed.
 */
function crmHealthOf(id: CrmName, data: CrmData, now: Date): IntegrationHealth {
  const since = new Date(now.getTime() - HEALTH_WINDOW_MS).toISOString();
  const recent = data.syncs.filter((sync) => sync.started_at >= since);
  const lastError = crmErrorsOf(data)[0];
  return {
    id,
    type: 'crm',
    connected: data.connected,
    status: !data.connected ? 'not_connected' : data.lastOutcome === 'failed' ? 'degraded' : 'healthy',
    last_event_received_at: data.lastSyncAt,
    events_24h: recent.length,
    events_24h_complete: recent.length < data.syncs.length || data.syncs.length < CRM_SYNCS_READ,
    signature_failures_24h: 0,
    dead_lettered_events: 0,
    dead_lettered_pending: 0,
    last_error: data.lastOutcome === 'failed' && lastError !== undefined ? { type: lastError.type, code: lastError.code, at: lastError.at } : null,
  };
}

function healthOf(id: string, data: HealthData): IntegrationHealth {
  const received = data.deliveries.filter((delivery) => delivery.psp === id);
  const signatureFailures = data.failures.filter((bucket) => bucket.psp === id).reduce((sum, bucket) => sum + bucket.count, 0);
  const deadLettered = data.deadLetters.filter((event) => event.provider === id);
  const pending = deadLettered.filter((event) => event.redriven_at === undefined).length;
  const lastError = latest(errorsOf(id, data));
  const connected = data.configured.has(id);
  return {
    id,
    type: 'psp',
    connected,
    status: !connected ? 'not_connected' : signatureFailures > 0 || pending > 0 ? 'degraded' : 'healthy',
    last_event_received_at: latest(received.map((delivery) => ({ at: delivery.received_at })))?.at ?? null,
    events_24h: received.length,
    events_24h_complete: data.deliveriesComplete,
    signature_failures_24h: signatureFailures,
    dead_lettered_events: deadLettered.length,
    dead_lettered_pending: pending,
    last_error: lastError === null ? null : { type: lastError.type, code: lastError.code, at: lastError.at },
  };
}

/** The health of every integration of the merchant (13 providers, then the CRMs). */
export async function listIntegrationHealth(merchantId: string, now: Date = new Date()): Promise<IntegrationHealth[]> {
  const [data, ...crms] = await Promise.all([healthData(merchantId, now), ...CRMS.map((crm) => crmData(merchantId, crm))]);
  return [...PSPS.map((id) => healthOf(id, data)), ...CRMS.map((crm, index) => crmHealthOf(crm, crms[index] as CrmData, now))];
}

/** The health of one integration (an id of INTEGRATION_IDS). */
export async function getIntegrationHealth(merchantId: string, id: string, now: Date = new Date()): Promise<IntegrationHealth> {
  if (isCrm(id)) return crmHealthOf(id, await crmData(merchantId, id), now);
  return healthOf(id, await healthData(merchantId, now));
}

/** The recent errors of one integration, newest first: hourly signature-failure buckets of the last 24 h and dead-lettered events of the last 30 days. */
export async function listIntegrationErrors(merchantId: string, id: string, now: Date = new Date()): Promise<IntegrationErrorEntry[]> {
  if (isCrm(id)) return crmErrorsOf(await crmData(merchantId, id)).slice(0, MAX_ERRORS_LISTED);
  if (!isPsp(id)) return [];
  return errorsOf(id, await healthData(merchantId, now, false)).slice(0, MAX_ERRORS_LISTED);
}
