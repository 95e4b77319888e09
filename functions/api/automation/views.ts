import type { AutomationSubscription } from '#data/automation-repository';
import type { OutboundEvent } from '#data/outbound-event-repository';

/** A subscription as the API answers it (the merchant is the caller's, in meta). */
export const subscriptionView = (subscription: AutomationSubscription) => ({
  id: subscription.id,
  target_url: subscription.target_url,
  event_type: subscription.event_type,
  created_at: subscription.created_at,
});

/** An outbound event as a poll answers it: `type` is the name asked for, `types` every name of the fact. */
export const eventView = (event: OutboundEvent, asked: string) => ({
  id: event.id,
  type: asked,
  types: [...event.types],
  created_at: event.created_at,
  merchant_id: event.merchant_id,
  data: { object: { ...event.data.object } },
});
