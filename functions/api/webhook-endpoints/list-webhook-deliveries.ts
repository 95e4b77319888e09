import { readDeliveryLog } from '#data/webhook-endpoint-repository';
import { cursorFilters, decodeCursor, encodeCursor } from '#api/pipeline/paging';
import { cursorEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listWebhookDeliveriesSchemas } from './schemas';
import { webhookDeliveryView } from './views';

const LIST = 'webhook-deliveries';

/**
 * GET /api/v1/webhooks/events: the delivery log, one row per attempt, newest first (kept 30 days),
 * optionally one endpoint's (`endpoint_id`) or one status's; cursor paged (B). A cursor continues
 * only the filters it was issued with. A page may hold fewer rows than `limit` with a `next`
 * cursor when the filters skip many rows: follow `next` until it is null.
 */
export const listWebhookDeliveries = defineOperation({ auth: 'api_key', schemas: listWebhookDeliveriesSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const filters = cursorFilters(query);
  const startKey = query.cursor === undefined ? undefined : await decodeCursor(query.cursor, merchantId, LIST, filters);
  const { deliveries, lastKey } = await readDeliveryLog(merchantId, { endpoint_id: query.endpoint_id, status: query.status }, query.limit, startKey);
  const next = lastKey === undefined ? null : await encodeCursor(merchantId, LIST, lastKey, filters);
  return { body: cursorEnvelope(deliveries.map(webhookDeliveryView), { next }, requestId, merchantId) };
});
