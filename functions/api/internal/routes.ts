import { type RouteDef, CRON, v1 } from '#api/route-rows';
import { deleteStoredWebhookPayloadsSchemas, downloadExportSchemas, getStoredWebhookPayloadSchemas, uploadExportSchemas } from './schemas';

/** The `internal` group's rows of the route table: its Lambda serves exactly these. */
export const internalRoutes: readonly RouteDef[] = [
  v1('internal', 'GET', '/internal/webhook/{webhook_log_id}', 'getStoredWebhookPayload', [], 'A stored inbound webhook payload', {
    ...CRON,
    schemas: getStoredWebhookPayloadSchemas,
  }),
  v1('internal', 'DELETE', '/internal/webhook-cleanup/{id}', 'deleteStoredWebhookPayloads', [], 'Delete stored webhook payloads for erasure', {
    ...CRON,
    schemas: deleteStoredWebhookPayloadsSchemas,
  }),
  v1('internal', 'POST', '/internal/exports/upload', 'uploadExport', [], 'Upload a data export file', { ...CRON, schemas: uploadExportSchemas }),
  v1('internal', 'GET', '/internal/exports/{merchantId}/{jobId}', 'downloadExport', [], 'Download a data export file', {
    ...CRON,
    schemas: downloadExportSchemas,
  }),
];
