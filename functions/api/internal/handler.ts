import { createGroupHandler } from '#api/group-handler';
import { cronSecretAuth } from '#api/pipeline/cron-secret';
import { deleteStoredWebhookPayloads } from './delete-stored-webhook-payloads';
import { downloadExport } from './download-export';
import { getStoredWebhookPayload } from './get-stored-webhook-payload';
import { internalRoutes } from './routes';
import { uploadExport } from './upload-export';

/** The internal Lambda: stored provider payloads and data export files, behind the shared cron secret. */
export const handler = createGroupHandler(
  internalRoutes,
  { getStoredWebhookPayload, deleteStoredWebhookPayloads, uploadExport, downloadExport },
  cronSecretAuth,
);
