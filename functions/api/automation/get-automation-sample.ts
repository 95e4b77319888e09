import { ValidationError } from '#core/errors';
import { samplePayload } from '#core/webhooks/events';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getAutomationSampleSchemas } from './schemas';

/**
 * GET /api/v1/automation/sample/{eventType}: a realistic payload of the type (A's or B's name), as
 * deliveries and polls carry it, for an automation platform's trigger set-up. Nothing of the
 * merchant's data is read: the object is the catalogue's sample. Unknown type: 422.
 */
export const getAutomationSample = defineOperation({ auth: 'api_key', schemas: getAutomationSampleSchemas }, async ({ params, principal, requestId }) => {
  const sample = samplePayload(params.eventType, principal.merchantId);
  if (sample === undefined) throw new ValidationError(`Unknown event type ${params.eventType}.`, { param: 'eventType' });
  return { body: envelope(sample, requestId, principal.merchantId) };
});
