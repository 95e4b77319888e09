import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { createWebhookEndpoint } from './create-webhook-endpoint';
import { deleteWebhookEndpoint } from './delete-webhook-endpoint';
import { listWebhookDeliveries } from './list-webhook-deliveries';
import { listWebhookEndpoints } from './list-webhook-endpoints';
import { recoverWebhookEndpoint } from './recover-webhook-endpoint';
import { webhookEndpointsRoutes } from './routes';
import { testWebhookEndpoint } from './test-webhook-endpoint';
import { updateWebhookEndpoint } from './update-webhook-endpoint';

/** The webhook-endpoints Lambda: endpoints (list, create, update, delete, test, recover); and the delivery log. */
export const handler = createGroupHandler(
  webhookEndpointsRoutes,
  {
    listWebhookEndpoints,
    createWebhookEndpoint,
    updateWebhookEndpoint,
    deleteWebhookEndpoint,
    testWebhookEndpoint,
    recoverWebhookEndpoint,
    listWebhookDeliveries,
  },
  apiKeyAuth,
);
