import { type RouteDef, v1 } from '#api/route-rows';
import {
  createWebhookEndpointSchemas,
  deleteWebhookEndpointSchemas,
  listWebhookDeliveriesSchemas,
  listWebhookEndpointsSchemas,
  recoverWebhookEndpointSchemas,
  testWebhookEndpointSchemas,
  updateWebhookEndpointSchemas,
} from './schemas';

/** The `webhook-endpoints` group's rows of the route table: its Lambda serves exactly these. */
export const webhookEndpointsRoutes: readonly RouteDef[] = [
  v1('webhook-endpoints', 'GET', '/webhooks/endpoints', 'listWebhookEndpoints', ['webhooks', 'read'], 'List webhook endpoints', {
    schemas: listWebhookEndpointsSchemas,
  }),
  v1('webhook-endpoints', 'POST', '/webhooks/endpoints', 'createWebhookEndpoint', ['webhooks', 'admin'], 'Register a webhook endpoint', {
    schemas: createWebhookEndpointSchemas,
  }),
  v1('webhook-endpoints', 'PUT', '/webhooks/endpoints/{id}', 'updateWebhookEndpoint', ['webhooks', 'admin'], 'Update a webhook endpoint', {
    schemas: updateWebhookEndpointSchemas,
  }),
  v1('webhook-endpoints', 'DELETE', '/webhooks/endpoints/{id}', 'deleteWebhookEndpoint', ['webhooks', 'admin'], 'Remove a webhook endpoint', {
    schemas: deleteWebhookEndpointSchemas,
  }),
  v1('webhook-endpoints', 'POST', '/webhooks/endpoints/{id}/test', 'testWebhookEndpoint', ['webhooks', 'admin'], 'Send a test event', {
    schemas: testWebhookEndpointSchemas,
  }),
  // Beyond the spec's rows (like GET /openapi.json): Svix's recover, the replay of failed deliveries.
  v1(
    'webhook-endpoints',
    'POST',
    '/webhooks/endpoints/{id}/recover',
    'recoverWebhookEndpoint',
    ['webhooks', 'admin'],
    "Send an endpoint's failed events again (recover; beyond the spec)",
    { schemas: recoverWebhookEndpointSchemas },
  ),
  v1('webhook-endpoints', 'GET', '/webhooks/events', 'listWebhookDeliveries', ['webhooks', 'read'], 'Delivery log', {
    schemas: listWebhookDeliveriesSchemas,
  }),
];
