import { ResourceNotFoundError } from '#core/errors';
import { findWebhookLogById } from '#data/stored-webhook-repository';
import { defineOperation } from '#api/operation';
import { envelope } from '#api/pipeline/responses';
import { getStoredWebhookPayloadSchemas } from './schemas';
import { storedWebhookView } from './views';

/**
 * GET /api/v1/internal/webhook/{webhook_log_id} (cron secret): a stored provider delivery, found
 * by its id alone, with its metadata. 404 when nothing is stored under the id (expired after 30
 * days, erased with a customer, cleaned up, or never stored) or the id has another shape.
 */
export const getStoredWebhookPayload = defineOperation({ auth: 'cron_secret', schemas: getStoredWebhookPayloadSchemas }, async ({ params, requestId }) => {
  const log = await findWebhookLogById(params.webhook_log_id);
  if (log === undefined) throw new ResourceNotFoundError('No stored webhook payload has this id.', { param: 'webhook_log_id' });
  return { body: envelope(storedWebhookView(log), requestId, log.merchant_id) };
});
