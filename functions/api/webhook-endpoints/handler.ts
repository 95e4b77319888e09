import { createGroupHandler } from '#api/group-handler';
import { createWebhookEndpoint } from './create-webhook-endpoint';
import { deleteWebhookEndpoint } from './delete-webhook-endpoint';
import { listWebhookEndpoints } from './list-webhook-endpoints';
import { webhookEndpointsRoutes } from './routes';
import { testWebhookEndpoint } from './test-webhook-endpoint';
import { updateWebhookEndpoint } from './update-webhook-endpoint';

/** The webhook-endpoints Lambda: endpoints (list, create, update, delete, test); rows not built yet answer 501. */
export const handler = createGroupHandler(webhookEndpointsRoutes, {
  listWebhookEndpoints,
  createWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  testWebhookEndpoint,
});
