import * as z from '#shared/zod';
import { DateTime, ResponseMeta } from '#api/envelope-schemas';
import { isKnownEventType } from './event-types';

/** A copy of the schema with a description for the OpenAPI document. */
function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  z.globalRegistry.add(copy, { description });
  return copy;
}

const EventTypeName = z.string().check(z.maxLength(100), z.refine(isKnownEventType, 'not an event type of the catalogue'));
const TargetUrl = z.string().check(z.minLength(1), z.maxLength(2048));

export const SubscribeBody = z.object({
  target_url: described(
    TargetUrl,
    'HTTPS URL the automation platform receives events at. Its host must resolve to public addresses only (no private, loopback, link-local, CGNAT or metadata addresses): otherwise 422 with param target_url.',
  ),
  event_type: described(EventTypeName, "The event type to receive, in A's or B's name (`payment.recovered` or `recovery.succeeded`); unknown: 422."),
});

export const UnsubscribeBody = z.object({
  id: z.optional(described(z.string().check(z.maxLength(64)), 'The subscription id (`hook_…`) that subscribe answered.')),
  target_url: z.optional(described(TargetUrl, 'With event_type, instead of id: the subscription of that target to that type.')),
  event_type: z.optional(described(EventTypeName, 'With target_url, instead of id.')),
});

export const AutomationSubscriptionData = z
  .object({
    id: z.string(),
    target_url: z.string(),
    event_type: described(z.string(), 'The canonical name of the subscribed type (either name of the fact may be given).'),
    created_at: DateTime,
  })
  .clone()
  .register(z.globalRegistry, { id: 'AutomationSubscription', description: 'A REST-hook subscription of an automation platform.' });

const EventTypeParams = z.object({ eventType: z.string().check(z.maxLength(100)) });

export const AutomationEvent = z
  .object({
    id: described(z.string(), 'The event id (`evt_…`), time-ordered: a platform dedupes on it.'),
    type: described(z.string(), 'The asked event type name.'),
    types: described(z.array(z.string()), 'Every name of this fact (A and B).'),
    created_at: DateTime,
    merchant_id: z.string(),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .clone()
  .register(z.globalRegistry, { id: 'AutomationEvent', description: 'An outbound event, as webhook endpoints receive it.' });

const SubscriptionResponse = z.object({ data: AutomationSubscriptionData, meta: ResponseMeta });
const DeletedResponse = z.object({ data: z.object({ ...AutomationSubscriptionData.shape, deleted: z.literal(true) }), meta: ResponseMeta });
const PollResponse = z.object({
  data: described(z.array(AutomationEvent), 'The last 50 events of the type (fewer if fewer exist), newest first.'),
  meta: ResponseMeta,
});

export const subscribeAutomationHookSchemas = { body: SubscribeBody, responses: { 200: SubscriptionResponse, 201: SubscriptionResponse } } as const;
export const unsubscribeAutomationHookSchemas = { body: UnsubscribeBody, responses: { 200: DeletedResponse } } as const;
export const pollAutomationEventsSchemas = { params: EventTypeParams, responses: { 200: PollResponse } } as const;

const SampleResponse = z.object({
  data: described(
    z.object({
      id: z.string(),
      type: z.string(),
      created_at: DateTime,
      merchant_id: z.string(),
      data: z.object({ object: z.record(z.string(), z.unknown()) }),
    }),
    'A sample event of the type, shaped as deliveries carry it (`type` is the asked name).',
  ),
  meta: ResponseMeta,
});

export const getAutomationSampleSchemas = { params: EventTypeParams, responses: { 200: SampleResponse } } as const;
