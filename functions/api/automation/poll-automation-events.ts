import { ValidationError } from '#core/errors';
import { listRecentOutboundEventsOfType } from '#data/outbound-event-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { resolveEventType } from './event-types';
import { pollAutomationEventsSchemas } from './schemas';
import { eventView } from './views';

/**
 * GET /api/v1/automation/poll/{eventType}: the merchant's last 50 outbound events of the type (A's
 * or B's name; an event carrying either name of the fact counts), newest first: the polling
 * fallback of automation platforms. Read from the per-type index of the outbound events (keys.ts
 * `automationKeys`): a bounded read whatever the merchant's volume. Unknown type: 422.
 */
export const pollAutomationEvents = defineOperation({ auth: 'api_key', schemas: pollAutomationEventsSchemas }, async ({ params, principal, requestId }) => {
  const type = resolveEventType(params.eventType);
  if (type === undefined) throw new ValidationError(`Unknown event type ${params.eventType}.`, { param: 'eventType' });
  const events = await listRecentOutboundEventsOfType(principal.merchantId, type.names);
  return {
    body: envelope(
      events.map((event) => eventView(event, params.eventType)),
      requestId,
      principal.merchantId,
    ),
  };
});
