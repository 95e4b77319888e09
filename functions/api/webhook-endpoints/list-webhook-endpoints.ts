import { endpointFromItem, endpointsQuery } from '#data/webhook-endpoint-repository';
import { queryCursorPage } from '#api/pipeline/paging';
import { cursorEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listWebhookEndpointsSchemas } from './schemas';
import { webhookEndpointView } from './views';

/** GET /api/v1/webhooks/endpoints: the merchant's endpoints, oldest first, cursor paged (B). */
export const listWebhookEndpoints = defineOperation({ auth: 'api_key', schemas: listWebhookEndpointsSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const page = await queryCursorPage(endpointsQuery(merchantId), { merchantId, list: 'webhook-endpoints', query, cursor: query.cursor, limit: query.limit });
  return {
    body: cursorEnvelope(
      page.items.map((item) => webhookEndpointView(endpointFromItem(item))),
      page.cursor,
      requestId,
      merchantId,
    ),
  };
});
