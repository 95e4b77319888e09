import { queueSender } from '#adapters/queue-sender';
import { matchesSubscription } from '#core/webhooks/events';
import { WEBHOOK_DELIVER_KIND, type WebhookDeliver } from '#contracts/webhook-deliveries';
import { listSubscriptionsForEvent } from '#data/automation-repository';
import { markDispatched, type OutboundEvent, wasDispatched } from '#data/outbound-event-repository';
import { listAllWebhookEndpoints } from '#data/webhook-endpoint-repository';

export interface DispatchResult {
  /** `already`: a redelivered stream record (the event was dispatched before), or an event gone meanwhile (erased). */
  readonly outcome: 'dispatched' | 'already';
  readonly endpoints: number;
  readonly automations: number;
}

/**
 * Fans one outbound event out (DESIGN §2, "SQS message per event × endpoint"): one Query of the
 * merchant's endpoints (at most 16) and one of the automation subscriptions to the event's fact,
 * then one `webhook.deliver` message per target, first attempt. Only this merchant's items are
 * read, so the cost per delivery does not depend on how many endpoints other merchants have.
 * Disabled endpoints are skipped; an endpoint subscribed to either name of the fact (A's or B's)
 * receives it once.
 *
 * The messages are enqueued first and the event marked dispatched after (a conditional update on
 * the event item), and a redelivered stream record whose event is marked does nothing. Marking
 * first lost events: a dispatcher that died between the mark and the enqueue (a crash, a timeout)
 * left an event marked that no target ever got, and the stream's retry skipped it (found by the
 * crash part of `npm run reliability`). Now a death anywhere before the mark has the retry enqueue
 * again: a target may get a second copy of attempt 1, which its log row makes a no-op once final.
 */
export async function dispatchOutboundEvent(event: OutboundEvent, now: Date = new Date()): Promise<DispatchResult> {
  const [endpoints, subscriptions] = await Promise.all([listAllWebhookEndpoints(event.merchant_id), listSubscriptionsForEvent(event.merchant_id, event.types)]);
  const targets = [
    ...endpoints
      .filter((endpoint) => endpoint.enabled && matchesSubscription(endpoint.events, event.types))
      .map((endpoint) => ({ target: 'endpoint' as const, target_id: endpoint.id })),
    ...subscriptions.map((subscription) => ({ target: 'automation' as const, target_id: subscription.id })),
  ];
  const counts = { endpoints: targets.filter((t) => t.target === 'endpoint').length, automations: subscriptions.length };
  // Nothing to send: no mark either (most merchants' events go nowhere; this costs them no write).
  if (targets.length === 0) return { outcome: 'dispatched', ...counts };
  if (await wasDispatched(event.merchant_id, event.id)) return { outcome: 'already', endpoints: 0, automations: 0 };
  await Promise.all(
    targets.map((target) => {
      const message: WebhookDeliver = { kind: WEBHOOK_DELIVER_KIND, merchant_id: event.merchant_id, event_id: event.id, ...target, attempt: 1 };
      return queueSender.send('outbound-deliveries', message);
    }),
  );
  // A concurrent delivery of the same record may have marked it meanwhile: its copies are the duplicates above.
  await markDispatched(event.merchant_id, event.id, now);
  return { outcome: 'dispatched', ...counts };
}
