import { ResourceNotFoundError } from '#core/errors';
import { cleanUpWebhookLog } from '#data/stored-webhook-repository';
import { webhookLogBodyOf } from '#data/webhook-log-repository';
import { defineOperation } from '#api/operation';
import { envelope } from '#api/pipeline/responses';
import { deleteStoredWebhookPayloadsSchemas } from './schemas';

/**
 * DELETE /api/v1/internal/webhook-cleanup/{id} (cron secret): deletes a stored provider delivery
 * for erasure, with its links to the further customers of a batch delivery. Idempotent: when
 * nothing is stored under a well-formed id (a second call, an expired or erased delivery) it answers 200
 * with `deleted: false` and zero counts, as DELETE /customers/{id} answers `deleted`.
 */
export const deleteStoredWebhookPayloads = defineOperation(
  { auth: 'cron_secret', schemas: deleteStoredWebhookPayloadsSchemas },
  async ({ params, requestId }) => {
    if (webhookLogBodyOf(params.id) === undefined) throw new ResourceNotFoundError('No stored webhook payload can have this id.', { param: 'id' });
    const cleanup = await cleanUpWebhookLog(params.id);
    const deleted = cleanup.payloads_deleted + cleanup.links_deleted > 0;
    return { body: envelope({ id: params.id, object: 'webhook_log_cleanup' as const, deleted, ...cleanup }, requestId, cleanup.merchant_id ?? undefined) };
  },
);
