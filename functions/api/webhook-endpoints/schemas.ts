import * as z from '#shared/zod';
import { DateTime, ResponseMeta } from '#api/envelope-schemas';
import { cursorPagingQuery } from '#api/pipeline/paging-query';

/** A copy of the schema with a description for the OpenAPI document. */
function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  z.globalRegistry.add(copy, { description });
  return copy;
}

const Id = z.string().check(z.minLength(1), z.maxLength(255));
const Int = z.number().check(z.int());

const Url = described(
  z.string().check(z.minLength(1), z.maxLength(4096)),
  'HTTPS URL of the receiver, without credentials, at most 2,048 characters. Its host must resolve only to public addresses (checked now and at every delivery): a private, loopback, link-local, CGNAT, metadata or IPv4-mapped private address is 422 `param: url`.',
);
const Events = described(
  z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(64)),
  'Event types to receive, A or B names (see docs/webhooks.md); all events when omitted. An unknown type is 422 `param: events`.',
);
const Description = described(z.string().check(z.maxLength(500)), 'A note for the merchant, at most 500 characters.');

export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.nullable(z.string()),
  enabled: z.boolean(),
  disabled_reason: described(
    z.nullable(z.string()),
    'Why deliveries stopped: the receiver answered 410 Gone or `webhook-delivery: disable`, every attempt failed for 5 days, or the endpoint was disabled through the API. Null while enabled; enabling it again clears it.',
  ),
  disabled_at: described(z.nullable(DateTime), 'When the endpoint was disabled; null while enabled.'),
  created_at: DateTime,
  updated_at: DateTime,
});

const WithSecret = z.object({
  ...WebhookEndpoint.shape,
  signing_secret: described(z.string(), 'The `whsec_…` secret that signs deliveries (Standard Webhooks). Shown once: store it now.'),
});

const EndpointParams = z.object({ id: Id });

export const listWebhookEndpointsSchemas = {
  query: z.object({ ...cursorPagingQuery }),
  responses: {
    200: z.object({
      data: z.array(WebhookEndpoint),
      cursor: z.object({ next: described(z.nullable(z.string()), 'The cursor of the next page; null at the end.') }),
      meta: ResponseMeta,
    }),
  },
} as const;

export const createWebhookEndpointSchemas = {
  body: z.object({ url: Url, events: z.optional(Events), description: z.optional(z.nullable(Description)) }),
  responses: { 201: z.object({ data: WithSecret, meta: ResponseMeta }) },
} as const;

export const updateWebhookEndpointSchemas = {
  params: EndpointParams,
  body: z.object({
    url: z.optional(Url),
    events: z.optional(Events),
    description: z.optional(z.nullable(Description)),
    enabled: z.optional(z.boolean()),
    rotate_secret: z.optional(
      described(
        z.boolean(),
        'true makes a new signing secret, returned once as `signing_secret`; the old one keeps signing for 24 h (both signatures are sent).',
      ),
    ),
  }),
  responses: {
    200: z.object({
      data: z.object({ ...WebhookEndpoint.shape, signing_secret: z.optional(z.string()) }),
      meta: ResponseMeta,
    }),
  },
} as const;

export const deleteWebhookEndpointSchemas = { params: EndpointParams, responses: { 204: z.undefined() } } as const;

export const WebhookTestResult = z.object({
  success: described(z.boolean(), 'The receiver answered 2xx within 15 s (and at most 64 KB).'),
  status_code: described(z.nullable(Int), "The receiver's status code; null when none came (refused address, timeout, connection error)."),
  response_time_ms: Int,
  endpoint_id: z.string(),
  event_id: z.string(),
  error: described(z.nullable(z.string()), 'Why the delivery failed; null on success.'),
});

export const testWebhookEndpointSchemas = {
  params: EndpointParams,
  responses: { 200: z.object({ data: WebhookTestResult, meta: ResponseMeta }) },
} as const;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const WebhookDelivery = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  endpoint_id: z.string(),
  attempt: described(Int, 'The attempt number of this event to this endpoint, from 1.'),
  status: z.enum(DELIVERY_STATUSES),
  status_code: described(z.nullable(Int), "The receiver's status code; null when none came (refused address, timeout, connection error)."),
  duration_ms: Int,
  error: z.nullable(z.string()),
  next_attempt_at: described(z.nullable(DateTime), 'When the next attempt is due; null when none is planned.'),
  created_at: DateTime,
});

export const listWebhookDeliveriesSchemas = {
  query: z.object({
    endpoint_id: z.optional(described(Id, "Only this endpoint's attempts.")),
    status: z.optional(z.enum(DELIVERY_STATUSES)),
    ...cursorPagingQuery,
  }),
  responses: {
    200: z.object({
      data: z.array(WebhookDelivery),
      cursor: z.object({ next: described(z.nullable(z.string()), 'The cursor of the next page; null at the end.') }),
      meta: ResponseMeta,
    }),
  },
} as const;

const Instant = z.iso.datetime({ offset: true });

export const WebhookRecovery = described(
  z.object({
    endpoint_id: z.string(),
    since: described(DateTime, 'The start of the window (events created at or after it), as UTC.'),
    until: described(DateTime, 'The end of the window (events created at or before it), as UTC: now when it was not given.'),
    requeued: described(
      Int,
      'Events sent again by this call: each has one new attempt (the number after its last), logged `pending` at once and put on the delivery queue, the oldest events taken first (they may arrive in any order). It is signed and delivered like any attempt, with the event id as `webhook-id`; if it fails, its retries follow the schedule from the beginning.',
    ),
    skipped_delivered: described(Int, 'Events of the window this endpoint has taken (an attempt was delivered): not sent again.'),
    skipped_pending: described(
      Int,
      'Events of the window with an attempt still to come (a retry scheduled, or an attempt sent again by an earlier call and not run yet): not sent again.',
    ),
    skipped_unavailable: described(
      Int,
      'Failed events that cannot be sent again: erased with their customer or expired (30 days), no longer subscribed to by the endpoint, or at the 100th attempt.',
    ),
    has_more: described(
      z.boolean(),
      'More failed events are in the window than one call sends (1,000): call again with the same since and until; the events sent by this call are pending then, and skipped.',
    ),
  }),
  'What a recovery did. This operation is beyond the spec (like GET /openapi.json): the replay that Svix offers as `POST /app/{app}/endpoint/{id}/recover`.',
);

export const recoverWebhookEndpointSchemas = {
  params: EndpointParams,
  body: described(
    z.strictObject({
      since: described(
        Instant,
        'ISO 8601 date-time with a Z or an offset: events created at or after it are recovered. At most 30 days ago (the delivery log keeps 30 days; older is 422 `param: since`), and not after `until` (422).',
      ),
      until: z.optional(described(Instant, 'ISO 8601 date-time: events created at or before it. Now when omitted.')),
    }),
    'The window of events to send again, by their creation time. An unknown field is refused (400 with `param`), so that a misspelt `until` never widens the window.',
  ),
  errorStatuses: [409],
  responses: { 202: z.object({ data: WebhookRecovery, meta: ResponseMeta }) },
} as const;
