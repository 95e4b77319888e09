import { deliverSafely, type DeliveryResult } from '#adapters/http/safe-delivery';
import { webhookAddressPolicy, webhookResolver } from '#adapters/http/webhook-delivery-config';
import { queueSender } from '#adapters/queue-sender';
import { deliveredType, type EventPayload } from '#core/webhooks/events';
import { failedLongEnough, retryDelayMs } from '#core/webhooks/retry-schedule';
import type { WebhookDeliver } from '#contracts/webhook-deliveries';
import { type AutomationSubscription, deleteSubscription, getSubscriptionById } from '#data/automation-repository';
import { webhookAttemptIdFor } from '#data/entities/webhook-endpoint';
import { getOutboundEvent, outboundEventItem } from '#data/outbound-event-repository';
import {
  clearEndpointFailing,
  closePendingDelivery,
  type DeliveryTarget,
  disableWebhookEndpoint,
  getDeliveryAttempt,
  getWebhookEndpoint,
  logDeliveryAttempt,
  markEndpointFailing,
  type WebhookDeliveryRecord,
  WebhookEndpointNotFoundError,
  type WebhookEndpointRecord,
} from '#data/webhook-endpoint-repository';
import { loggedOutcome, type SendOptions, sendToEndpoint } from './webhook-endpoints';

/** The longest wait the queue itself can hold a message for (SQS DelaySeconds ≤ 900); longer waits go through the due index. */
export const MAX_QUEUE_DELAY_MS = 15 * 60 * 1000;

export type DeliveryOutcome =
  /** Nothing sent: the event is gone (erased, expired), or the target is (deleted, unsubscribed). */
  | { readonly kind: 'dropped'; readonly reason: string }
  /** Nothing sent: this attempt's log row is final already (the queue handed the message over twice). */
  | { readonly kind: 'skipped' }
  | { readonly kind: 'delivered'; readonly delivery: WebhookDeliveryRecord }
  | {
      readonly kind: 'failed';
      readonly delivery: WebhookDeliveryRecord;
      /** The next attempt, when there is one: on the queue (a wait up to 15 min) or in the due index. */
      readonly next?: { readonly attempt: number; readonly at: string; readonly via: 'queue' | 'due_index' };
      /** The endpoint was disabled by this attempt (410, `webhook-delivery: disable`, 5 days of failures). */
      readonly disabled?: string;
      /** The automation subscription was removed (it answered 410). */
      readonly unsubscribed?: boolean;
    };

export interface DeliverOptions extends SendOptions {
  /** A uniform number in [0, 1) for the jitter. @default Math.random */
  readonly random?: () => number;
}

type Target =
  | { readonly kind: 'endpoint'; readonly endpoint: WebhookEndpointRecord }
  | { readonly kind: 'automation'; readonly subscription: AutomationSubscription };

async function findTarget(message: WebhookDeliver): Promise<Target | undefined> {
  if (message.target === 'automation') {
    const subscription = await getSubscriptionById(message.merchant_id, message.target_id);
    return subscription === undefined ? undefined : { kind: 'automation', subscription };
  }
  try {
    return { kind: 'endpoint', endpoint: await getWebhookEndpoint(message.merchant_id, message.target_id) };
  } catch (error) {
    if (error instanceof WebhookEndpointNotFoundError) return undefined;
    throw error;
  }
}

/**
 * A REST-hook subscription (Zapier's model) has no secret: the same JSON payload, with the
 * Standard Webhooks id and timestamp headers (the id lets it drop a retry it already took) and no
 * signature, through the same SSRF-safe client.
 */
function sendToAutomation(subscription: AutomationSubscription, payload: EventPayload, now: Date, options: SendOptions): Promise<DeliveryResult> {
  return deliverSafely({
    url: subscription.target_url,
    body: JSON.stringify(payload),
    headers: { 'webhook-id': payload.id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)) },
    resolver: options.resolver ?? webhookResolver(),
    policy: webhookAddressPolicy(),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
}

/** Disables the endpoint and records `webhook_endpoint.disabled` (the merchant's, no customer) in the same transaction. */
function disableEndpoint(endpoint: WebhookEndpointRecord, reason: string, now: Date): Promise<boolean> {
  const announcement = outboundEventItem(
    endpoint.merchant_id,
    null,
    ['webhook_endpoint.disabled'],
    { endpoint_id: endpoint.id, url: endpoint.url, reason, disabled_at: now.toISOString() },
    now,
  );
  return disableWebhookEndpoint(endpoint.merchant_id, endpoint.id, reason, now, [announcement]);
}

/** Why the receiver's answer disables the endpoint at once (410 Gone, `webhook-delivery: disable`), or undefined. */
function disablingAnswer(result: DeliveryResult): string | undefined {
  if (result.status === 410) return 'the receiver answered 410 Gone';
  if (result.headers['webhook-delivery']?.trim().toLowerCase() === 'disable') return 'the receiver answered webhook-delivery: disable';
  return undefined;
}

const abortsMessage = (result: DeliveryResult): boolean => result.headers['webhook-delivery']?.trim().toLowerCase() === 'abort-message';

/** Nothing is sent; a retry's `pending` row (its id is known from the message alone) is closed with the reason. */
async function drop(message: WebhookDeliver, reason: string): Promise<DeliveryOutcome> {
  if (message.due_at !== undefined) {
    await closePendingDelivery(
      message.merchant_id,
      webhookAttemptIdFor(new Date(message.due_at), message.event_id, message.target_id, message.attempt),
      reason,
    );
  }
  return { kind: 'dropped', reason };
}

/**
 * One attempt of one outbound event to one target (the `webhook.deliver` processor of the
 * outbound-deliveries queue), at least once and never twice once logged:
 * - the event gone (erased with its customer, expired) or the target gone: dropped, nothing sent;
 * - this attempt's log row (keyed by event × target × attempt) final already: skipped;
 * - a disabled endpoint: the attempt logged failed "endpoint disabled", no retry;
 * - else sent (signed for an endpoint; id and timestamp headers for an automation hook) and logged.
 * A 2xx within 15 s succeeds and ends the endpoint's failing streak. A failure schedules the next
 * attempt on Svix's schedule with jitter (core/webhooks/retry-schedule.ts): on the queue with a
 * delay up to 15 min, else as a `pending` log row in the due index (the every-minute task
 * `dispatch-due-webhooks` enqueues it). 410 or `webhook-delivery: disable` disables an endpoint
 * (410 removes an automation subscription); `webhook-delivery: abort-message` stops this
 * message's retries; an endpoint failing every attempt for 5 days is disabled, and
 * `webhook_endpoint.disabled` goes to the merchant's other endpoints through the outbox.
 * The next attempt is scheduled before this one's row is written final, so a crash in between
 * retries this attempt rather than losing the next. `now` is the attempt's time for the schedule
 * and the 5-day rule (tests drive it); the signature's timestamp is the real time of the send.
 */
export async function deliverWebhook(message: WebhookDeliver, now: Date = new Date(), options: DeliverOptions = {}): Promise<DeliveryOutcome> {
  const event = await getOutboundEvent(message.merchant_id, message.event_id);
  if (event === undefined) return drop(message, 'the event is gone (erased or expired)');
  const target = await findTarget(message);
  if (target === undefined) return drop(message, `the ${message.target} is gone`);

  const id = webhookAttemptIdFor(new Date(message.due_at ?? event.created_at), event.id, message.target_id, message.attempt);
  const logged = await getDeliveryAttempt(message.merchant_id, id);
  if (logged !== undefined && logged.status !== 'pending') return { kind: 'skipped' };

  const type = target.kind === 'endpoint' ? deliveredType(target.endpoint.events, event.types) : target.subscription.event_type;
  if (type === undefined) return drop(message, 'the endpoint no longer subscribes to this event');
  const payload: EventPayload = { id: event.id, type, created_at: event.created_at, merchant_id: event.merchant_id, data: event.data };
  const row = (fields: Pick<WebhookDeliveryRecord, 'status' | 'status_code' | 'duration_ms' | 'error' | 'next_attempt_at'>): WebhookDeliveryRecord => ({
    id,
    merchant_id: message.merchant_id,
    endpoint_id: message.target_id,
    event_id: event.id,
    event_type: type,
    attempt: message.attempt,
    created_at: now.toISOString(),
    ...fields,
  });

  if (target.kind === 'endpoint' && !target.endpoint.enabled) {
    const delivery = row({ status: 'failed', status_code: null, duration_ms: 0, error: 'endpoint disabled', next_attempt_at: null });
    await logDeliveryAttempt(delivery);
    return { kind: 'failed', delivery };
  }

  // Signed at the real send time (receivers reject a timestamp more than 5 min off), whatever the attempt's `now`.
  const sentAt = new Date();
  const result =
    target.kind === 'endpoint'
      ? await sendToEndpoint(target.endpoint, payload, sentAt, options)
      : await sendToAutomation(target.subscription, payload, sentAt, options);
  const outcome = loggedOutcome(result);

  if (result.success) {
    const delivery = row({ status: 'delivered', ...outcome, next_attempt_at: null });
    await logDeliveryAttempt(delivery);
    if (target.kind === 'endpoint') {
      if (target.endpoint.failing_since !== null) await clearEndpointFailing(message.merchant_id, target.endpoint.id);
      // A receiver may take this delivery and still ask for no more (Svix's delivery control).
      const disabling = disablingAnswer(result);
      if (disabling !== undefined) await disableEndpoint(target.endpoint, disabling, now);
    }
    return { kind: 'delivered', delivery };
  }

  const final = async (note: string | undefined, extra: Partial<Extract<DeliveryOutcome, { kind: 'failed' }>> = {}): Promise<DeliveryOutcome> => {
    const error = note === undefined ? outcome.error : `${outcome.error ?? 'failed'}; ${note}`;
    const delivery = row({ status: 'failed', ...outcome, error, next_attempt_at: null });
    await logDeliveryAttempt(delivery);
    return { kind: 'failed', delivery, ...extra };
  };

  if (target.kind === 'endpoint') {
    const disabling = disablingAnswer(result);
    if (disabling !== undefined) {
      await disableEndpoint(target.endpoint, disabling, now);
      return final(`endpoint disabled: ${disabling}`, { disabled: disabling });
    }
  } else if (result.status === 410) {
    await deleteSubscription(target.subscription);
    return final('subscription removed: the receiver answered 410 Gone', { unsubscribed: true });
  }
  if (abortsMessage(result)) return final('retries stopped: the receiver answered webhook-delivery: abort-message');

  if (target.kind === 'endpoint') {
    // A streak already running (the endpoint as read for this attempt) needs no write; else one starts now.
    const failingSince = target.endpoint.failing_since ?? (await markEndpointFailing(message.merchant_id, target.endpoint.id, now));
    if (failingSince !== undefined && failedLongEnough(failingSince, now)) {
      const reason = `every delivery failed for 5 days (since ${failingSince})`;
      await disableEndpoint(target.endpoint, reason, now);
      return final(`endpoint disabled: ${reason}`, { disabled: reason });
    }
  }

  // A recovered event's series of attempts began at its recovery: its retries follow the schedule from the start.
  const seriesStart = Math.min(message.series_start ?? 1, message.attempt);
  const waitMs = retryDelayMs(message.attempt - seriesStart + 1, options.random);
  if (waitMs === undefined) return final(`no attempts left (${message.attempt} made)`);
  const at = new Date(now.getTime() + waitMs).toISOString();
  const nextMessage: WebhookDeliver = { ...message, attempt: message.attempt + 1, due_at: at };
  const delivery = row({ status: 'failed', ...outcome, next_attempt_at: at });
  if (waitMs <= MAX_QUEUE_DELAY_MS) {
    await queueSender.send('outbound-deliveries', nextMessage, { delaySeconds: Math.round(waitMs / 1000) });
    await logDeliveryAttempt(delivery);
    return { kind: 'failed', delivery, next: { attempt: nextMessage.attempt, at, via: 'queue' } };
  }
  const pending: WebhookDeliveryRecord = {
    ...delivery,
    id: webhookAttemptIdFor(new Date(at), event.id, message.target_id, nextMessage.attempt),
    attempt: nextMessage.attempt,
    status: 'pending',
    status_code: null,
    duration_ms: 0,
    error: null,
  };
  await logDeliveryAttempt(delivery, { pending, target: message.target satisfies DeliveryTarget, series_start: message.series_start });
  return { kind: 'failed', delivery, next: { attempt: nextMessage.attempt, at, via: 'due_index' } };
}
