import { queueSender } from '#adapters/queue-sender';
import { StateConflictError, ValidationError } from '#core/errors';
import { idBody, timeOrderedIdFloor } from '#core/ids';
import { deliveredType } from '#core/webhooks/events';
import { MAX_ATTEMPT_NUMBER, WEBHOOK_DELIVER_KIND, type WebhookDeliver, WebhookDeliverSchema } from '#contracts/webhook-deliveries';
import { webhookAttemptIdFor } from '#data/entities/webhook-endpoint';
import { getOutboundEvents } from '#data/outbound-event-repository';
import {
  type AttemptState,
  closePendingDelivery,
  DELIVERY_RETENTION_SECONDS,
  endpointAttemptsFrom,
  getWebhookEndpoint,
  putPendingAttempt,
} from '#data/webhook-endpoint-repository';

/** Events one call sends again at most; `has_more` says when the window holds more (call again with the same window). */
export const MAX_RECOVERED_PER_CALL = 1_000;

/**
 * A next attempt (or a pending one) this late is taken for lost (its message dead-lettered, say):
 * the event is recoverable. Any sooner, a retry is still on its way and the event is skipped.
 */
export const LOST_ATTEMPT_AFTER_MS = 60 * 60 * 1000;

/** Events sent again at once (each a Put and a queue message). */
const RESEND_CONCURRENCY = 8;

export interface RecoveryRequest {
  /** ISO 8601: events created at or after it. */
  readonly since: string;
  /** ISO 8601: events created at or before it; now when absent. */
  readonly until?: string | undefined;
}

export interface RecoveryResult {
  readonly endpoint_id: string;
  readonly since: string;
  readonly until: string;
  /** Events sent again in this call: one new attempt each, on the outbound-deliveries queue, the oldest taken first. */
  readonly requeued: number;
  /** Events of the window this endpoint took (a delivered attempt). */
  readonly skipped_delivered: number;
  /** Events of the window with an attempt still to come (a retry scheduled, or a recovery's attempt not run yet). */
  readonly skipped_pending: number;
  /** Failed events that cannot be sent again: erased or expired, no longer subscribed to, or at the last attempt number (100). */
  readonly skipped_unavailable: number;
  /** More failed events of the window than one call sends: call again with the same window. */
  readonly has_more: boolean;
}

export interface RecoveryOptions {
  readonly now?: Date;
  /** At most this many events sent again. @default MAX_RECOVERED_PER_CALL */
  readonly limit?: number;
}

/** The window, checked: `until` defaults to now; `since` not after `until` and within the log's retention (422 with `param`). */
function windowOf(request: RecoveryRequest, now: Date): { since: Date; until: Date } {
  const since = new Date(request.since);
  const until = request.until === undefined ? now : new Date(request.until);
  if (Number.isNaN(since.getTime())) throw new ValidationError('since must be an ISO 8601 date-time', { param: 'since' });
  if (Number.isNaN(until.getTime())) throw new ValidationError('until must be an ISO 8601 date-time', { param: 'until' });
  if (since.getTime() > until.getTime()) throw new ValidationError('since must not be after until', { param: 'since' });
  const oldest = now.getTime() - DELIVERY_RETENTION_SECONDS * 1000;
  if (since.getTime() < oldest) {
    throw new ValidationError(
      `since must be within the delivery log's ${DELIVERY_RETENTION_SECONDS / 86_400} days (not before ${new Date(oldest).toISOString()})`,
      { param: 'since' },
    );
  }
  return { since, until };
}

type Verdict = 'failed' | 'delivered' | 'pending';

/** Where an event's attempts to the endpoint stand, given its latest attempt (and whether an earlier one was delivered). */
function verdictOf(latest: AttemptState, delivered: boolean, now: Date): Verdict {
  if (delivered || latest.status === 'delivered') return 'delivered';
  const due = latest.next_attempt_at === null ? undefined : Date.parse(latest.next_attempt_at);
  const lost = due !== undefined && now.getTime() - due > LOST_ATTEMPT_AFTER_MS;
  if (latest.status === 'pending') return lost ? 'failed' : 'pending';
  return due === undefined || lost ? 'failed' : 'pending';
}

/**
 * POST /webhooks/endpoints/{id}/recover (Svix's recover): sends again, to one enabled endpoint,
 * every event created in [since, until] whose attempts to it ended failed: the latest attempt
 * failed with no next attempt (its retries exhausted, stopped by `webhook-delivery:
 * abort-message`, or logged while the endpoint was disabled), or a next attempt lost (overdue by
 * more than an hour). Delivered events, and those with an attempt still to come, are skipped; so
 * are events gone (erased, expired) and those the endpoint no longer subscribes to.
 *
 * Each event sent again gets one new attempt (the number after its last), logged `pending` at
 * once (GET /webhooks/events shows it, and a second call skips it), then put on the
 * outbound-deliveries queue as the dispatcher's `webhook.deliver` message, the oldest events taken first. The
 * consumer signs and sends it with the event's own id (the receiver's `webhook-id`), and its
 * retries follow the schedule from the beginning (a new series). At most `limit` events a call;
 * `has_more` says the caller is to call again with the same window.
 *
 * Cost: one Query of the merchant's delivery log from `since` to now (every endpoint's rows: the
 * log is keyed by time, not endpoint), one BatchGetItem per 100 candidate events, and a Put and a
 * queue message per event sent again.
 */
export async function recoverFailedDeliveries(
  merchantId: string,
  endpointId: string,
  request: RecoveryRequest,
  options: RecoveryOptions = {},
): Promise<RecoveryResult> {
  const now = options.now ?? new Date();
  const limit = options.limit ?? MAX_RECOVERED_PER_CALL;
  const endpoint = await getWebhookEndpoint(merchantId, endpointId);
  const { since, until } = windowOf(request, now);
  if (!endpoint.enabled) {
    throw new StateConflictError(
      `The endpoint is disabled (${endpoint.disabled_reason ?? 'disabled'}): enable it first with PUT /api/v1/webhooks/endpoints/${endpoint.id} {"enabled": true}, then recover`,
    );
  }

  // Event ids are time-ordered: the window is a range of id bodies.
  const fromBody = timeOrderedIdFloor(since);
  const toBody = timeOrderedIdFloor(new Date(until.getTime() + 1));
  const inWindow = (eventId: string): boolean => {
    const body = idBody(eventId, 'evt');
    return body !== undefined && body >= fromBody && body < toBody;
  };
  const latest = new Map<string, AttemptState>();
  const delivered = new Set<string>();
  for await (const page of endpointAttemptsFrom(merchantId, endpoint.id, since)) {
    for (const attempt of page) {
      if (!inWindow(attempt.event_id)) continue;
      if (attempt.status === 'delivered') delivered.add(attempt.event_id);
      const known = latest.get(attempt.event_id);
      if (known === undefined || attempt.attempt > known.attempt) latest.set(attempt.event_id, attempt);
    }
  }

  const counts = { skipped_delivered: 0, skipped_pending: 0, skipped_unavailable: 0 };
  const failed: AttemptState[] = [];
  for (const [eventId, attempt] of latest) {
    const verdict = verdictOf(attempt, delivered.has(eventId), now);
    if (verdict === 'delivered') counts.skipped_delivered += 1;
    else if (verdict === 'pending') counts.skipped_pending += 1;
    else if (attempt.attempt >= MAX_ATTEMPT_NUMBER) counts.skipped_unavailable += 1;
    else failed.push(attempt);
  }
  failed.sort((a, b) => (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0));

  // Oldest first, until `limit` are sent: each batch reads its events (gone ones skipped) and sends the rest.
  let requeued = 0;
  let next = 0;
  while (next < failed.length && requeued < limit) {
    const batch = failed.slice(next, next + Math.min(100, limit - requeued));
    next += batch.length;
    const events = await getOutboundEvents(
      merchantId,
      batch.map((attempt) => attempt.event_id),
    );
    const sendable = batch.filter((attempt) => {
      const event = events.get(attempt.event_id);
      return event !== undefined && deliveredType(endpoint.events, event.types) !== undefined;
    });
    counts.skipped_unavailable += batch.length - sendable.length;
    // A few at once, taken oldest first (one call of 1,000 stays well within the API's 29 s).
    let taken = 0;
    const worker = async (): Promise<void> => {
      for (let attempt = sendable[taken++]; attempt !== undefined; attempt = sendable[taken++]) {
        if (await resend(merchantId, endpoint.id, attempt, now)) requeued += 1;
        else counts.skipped_pending += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(RESEND_CONCURRENCY, sendable.length) }, worker));
  }
  return {
    endpoint_id: endpoint.id,
    since: since.toISOString(),
    until: until.toISOString(),
    requeued,
    ...counts,
    has_more: next < failed.length,
  };
}

/**
 * One new attempt of a failed event: its `pending` row first (false, and nothing sent, when a
 * concurrent recovery wrote it), then its message. An enqueue that fails closes the row again.
 */
async function resend(merchantId: string, endpointId: string, last: AttemptState, now: Date): Promise<boolean> {
  const attempt = last.attempt + 1;
  const message: WebhookDeliver = WebhookDeliverSchema.parse({
    kind: WEBHOOK_DELIVER_KIND,
    merchant_id: merchantId,
    event_id: last.event_id,
    target: 'endpoint',
    target_id: endpointId,
    attempt,
    due_at: now.toISOString(),
    series_start: attempt,
  });
  const id = webhookAttemptIdFor(now, last.event_id, endpointId, attempt);
  const written = await putPendingAttempt({
    id,
    merchant_id: merchantId,
    endpoint_id: endpointId,
    event_id: last.event_id,
    event_type: last.event_type,
    attempt,
    status: 'pending',
    status_code: null,
    duration_ms: 0,
    error: null,
    next_attempt_at: now.toISOString(),
    created_at: now.toISOString(),
  });
  if (!written) return false;
  try {
    await queueSender.send('outbound-deliveries', message);
  } catch (error) {
    await closePendingDelivery(merchantId, id, 'the recovery could not enqueue this attempt');
    throw error;
  }
  return true;
}
