import { exportStore } from '#adapters/exports/index';
import { ResourceNotFoundError, StateConflictError } from '#core/errors';
import { EXPORT_EXTENSIONS, type ExportContentType, isExportSegment, MAX_EXPORT_TRANSFER_BYTES } from '#core/exports';
import { defineOperation } from '#api/operation';
import { downloadExportSchemas } from './schemas';

const notFound = (param: 'merchantId' | 'jobId' = 'jobId'): ResourceNotFoundError =>
  new ResourceNotFoundError('No export file is stored for this merchant and job.', { param });

/**
 * GET /api/v1/internal/exports/{merchantId}/{jobId} (cron secret): the export file itself, with
 * its content type and length, as an attachment. 404 when the merchant has no file under the job
 * (another merchant's job id included); 409 for a file past what one response can carry (4 MiB),
 * whose location (the export job's, `exports show`) is where to read it.
 */
export const downloadExport = defineOperation({ auth: 'cron_secret', schemas: downloadExportSchemas }, async ({ params }) => {
  if (!isExportSegment(params.merchantId)) throw notFound('merchantId');
  if (!isExportSegment(params.jobId)) throw notFound();
  const store = exportStore();
  const head = await store.head(params.merchantId, params.jobId);
  if (head === undefined) throw notFound();
  if (head.size > MAX_EXPORT_TRANSFER_BYTES) {
    throw new StateConflictError(
      `The file is ${head.size} bytes, more than ${MAX_EXPORT_TRANSFER_BYTES} a download carries: read it at ${store.location(params.merchantId, params.jobId)}.`,
    );
  }
  const file = await store.get(params.merchantId, params.jobId);
  if (file === undefined) throw notFound();
  const extension = EXPORT_EXTENSIONS[file.contentType as ExportContentType] ?? 'txt';
  return {
    body: undefined,
    file: { bytes: file.bytes, contentType: file.contentType },
    headers: { 'Content-Disposition': `attachment; filename="${params.jobId}.${extension}"` },
  };
});
