import { exportStore } from '#adapters/exports/index';
import { InvalidRequestError, ResourceNotFoundError, ValidationError } from '#core/errors';
import { EXPORT_CONTENT_TYPES, type ExportContentType, exportDownloadPath } from '#core/exports';
import { getMerchant } from '#data/merchant-repository';
import { defineOperation } from '#api/operation';
import { headerOf } from '#api/pipeline/headers';
import { rawBody } from '#api/pipeline/parse-request';
import { envelope } from '#api/pipeline/responses';
import { uploadExportSchemas } from './schemas';

/** The media type of `Content-Type`, refused unless it is an export type in UTF-8. */
function contentTypeOf(header: string | undefined): ExportContentType {
  if (header === undefined || header.trim() === '') throw new InvalidRequestError("Missing Content-Type: send the file's type.", { param: 'Content-Type' });
  const [type = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((parameter) => parameter.startsWith('charset='));
  if (charset !== undefined && !['charset=utf-8', 'charset="utf-8"'].includes(charset)) {
    throw new ValidationError('Export files are UTF-8: send charset=utf-8 or no charset.', { param: 'Content-Type' });
  }
  if (!(EXPORT_CONTENT_TYPES as readonly string[]).includes(type)) {
    throw new ValidationError(`Content-Type must be one of ${EXPORT_CONTENT_TYPES.join(', ')}.`, { param: 'Content-Type' });
  }
  return type as ExportContentType;
}

/** Refuses a body that is not UTF-8, or not the JSON its type says (JSON lines: each non-empty line). */
function checkContent(bytes: Buffer, type: ExportContentType): void {
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) throw new ValidationError('The file is not valid UTF-8.', { param: 'body' });
  const parses = (json: string): boolean => {
    try {
      JSON.parse(json);
      return true;
    } catch {
      return false;
    }
  };
  if (type === 'application/json' && !parses(text)) throw new ValidationError('The file is not valid JSON.', { param: 'body' });
  if (type === 'application/x-ndjson') {
    const bad = text.split('\n').findIndex((line) => line.trim() !== '' && !parses(line));
    if (bad !== -1) throw new ValidationError(`Line ${bad + 1} of the file is not valid JSON.`, { param: 'body' });
  }
}

/**
 * POST /api/v1/internal/exports/upload?merchant_id=…&job_id=… (cron secret): stores an export
 * file for a merchant through the exports port. The body is the file (at most 4 MiB), its type
 * in Content-Type (core/exports.ts EXPORT_CONTENT_TYPES). Create-only: a file already stored
 * under the merchant and job is 409, so an upload never replaces a job's output. 404 for an
 * unknown merchant. Answers 201 with where the file is and where to download it.
 */
export const uploadExport = defineOperation({ auth: 'cron_secret', schemas: uploadExportSchemas }, async ({ event, query, requestId }) => {
  const contentType = contentTypeOf(headerOf(event, 'content-type'));
  const bytes = rawBody(event, uploadExportSchemas.maxBodyBytes);
  if (bytes === undefined) throw new InvalidRequestError('Missing body: send the file as the body.', { param: 'body' });
  checkContent(bytes, contentType);
  if ((await getMerchant(query.merchant_id)) === undefined) throw new ResourceNotFoundError('No merchant has this id.', { param: 'merchant_id' });
  const stored = await exportStore().put(query.merchant_id, query.job_id, bytes, contentType);
  return {
    statusCode: 201,
    body: envelope(
      {
        object: 'export_file' as const,
        merchant_id: query.merchant_id,
        job_id: query.job_id,
        content_type: contentType,
        size: stored.size,
        location: stored.location,
        download_path: exportDownloadPath(query.merchant_id, query.job_id),
      },
      requestId,
      query.merchant_id,
    ),
  };
});
