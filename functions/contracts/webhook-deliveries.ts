import * as z from '#shared/zod';

/** The kind of every message on `outbound-deliveries`: one attempt of one outbound event to one target. */
export const WEBHOOK_DELIVER_KIND = 'webhook.deliver';

/** The highest attempt number a message may carry: an event past it is not sent again, even by a recovery. */
export const MAX_ATTEMPT_NUMBER = 100;

/**
 * One attempt of one outbound event to one target (an endpoint `we_…` or an automation
 * subscription `hook_…`): ids only, never the payload (the consumer reads the event, so an event
 * erased meanwhile is not delivered). `due_at`: when the attempt was scheduled (absent for the
 * first, which is due at the event's creation); it names the attempt's log row with the rest.
 * `series_start`: the attempt that began this series of attempts (absent: 1). A recovery
 * (POST /webhooks/endpoints/{id}/recover) sends a failed event again as a new attempt that starts a
 * new series, so its retries follow the schedule from its beginning.
 */
export const WebhookDeliverSchema = z.object({
  kind: z.literal(WEBHOOK_DELIVER_KIND),
  merchant_id: z.string().check(z.minLength(1), z.maxLength(200)),
  event_id: z.string().check(z.minLength(1), z.maxLength(200)),
  target: z.enum(['endpoint', 'automation']),
  target_id: z.string().check(z.minLength(1), z.maxLength(200)),
  attempt: z.number().check(z.int(), z.minimum(1), z.maximum(MAX_ATTEMPT_NUMBER)),
  due_at: z.optional(z.iso.datetime()),
  series_start: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_ATTEMPT_NUMBER))),
});
export type WebhookDeliver = z.infer<typeof WebhookDeliverSchema>;
