import { isPsp, PSPS } from '#core/providers';
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
export const CRM_INTEGRATIONS = ['crm_a', 'crm_b'] as const;
export const INTEGRATION_IDS: readonly string[] = [...PSPS, ...CRM_INTEGRATIONS];
export const isIntegrationId = (value: string): boolean => INTEGRATION_IDS.includes(value);

/** The window of received events and signature failures. */
export const HEALTH_WINDOW_MS = 24 * 3600 * 1000;
/** The window of dead-lettered events: their retention (dead-letter-repository.ts). */
export const DEAD_LETTER_WINDOW_MS = 30 * 24 * 3600 * 1000;
/** The most entries GET /integrations/{id}/errors lists. */
export const MAX_ERRORS_LISTED = 100;

export interface IntegrationError {
  readonly type: 'signature_failure' | 'dead_lettered';
  /** `invalid_signature`, or the dead-lettered event's reason code. */
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
    };

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

function healthOf(id: string, data: HealthData): IntegrationHealth {
  if (!isPsp(id)) {
    // The CRM sync log is not on main yet (issue 13, CRM helper): CRMs answer as not connected.
    return {
      id,
      type: 'crm',
      connected: false,
      status: 'not_connected',
      last_event_received_at: null,
      events_24h: 0,
      events_24h_complete: true,
      signature_failures_24h: 0,
      dead_lettered_events: 0,
      dead_lettered_pending: 0,
      last_error: null,
    };
  }
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
  const data = await healthData(merchantId, now);
  return INTEGRATION_IDS.map((id) => healthOf(id, data));
}

/** The health of one integration (an id of INTEGRATION_IDS). */
export async function getIntegrationHealth(merchantId: string, id: string, now: Date = new Date()): Promise<IntegrationHealth> {
  return healthOf(
    id,
    isPsp(id) ? await healthData(merchantId, now) : { configured: new Set(), deliveries: [], deliveriesComplete: true, failures: [], deadLetters: [] },
  );
}

/** The recent errors of one integration, newest first: hourly signature-failure buckets of the last 24 h and dead-lettered events of the last 30 days. */
export async function listIntegrationErrors(merchantId: string, id: string, now: Date = new Date()): Promise<IntegrationErrorEntry[]> {
  if (!isPsp(id)) return [];
  return errorsOf(id, await healthData(merchantId, now, false)).slice(0, MAX_ERRORS_LISTED);
}
