import * as z from '#shared/zod';
import { DateTime, described, ResponseMeta } from '#api/envelope-schemas';
import { EXPORT_CONTENT_TYPES, MAX_EXPORT_TRANSFER_BYTES } from '#core/exports';

// Path parameters are any id the pipeline admits: an id of another shape names nothing, so the
// operation answers 404 for it, after the query is checked like every route's.
const WebhookLogId = described(
  z.string(),
  'A stored provider delivery, `whk_<26 characters>`, as the dead-letter and integration-health records name it. Any other shape is 404.',
);

/** A merchant id or job id as an export file is stored under it (core/exports.ts). */
const ExportSegment = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/));

const StoredWebhook = z.object({
  id: z.string(),
  object: z.literal('webhook_log'),
  merchant_id: z.string(),
  psp: z.string(),
  route_variant: described(z.enum(['default', 'invoice']), '`invoice` for deliveries to `/square/{merchant_id}/invoice`.'),
  customer_id: described(
    z.nullable(z.string()),
    'The first customer the delivery concerns, once the consumer has read it; null before, or when it names none.',
  ),
  received_at: DateTime,
  expires_at: described(DateTime, 'When the stored payload is deleted (30 days after it arrived).'),
  url: described(z.string(), 'The URL the provider posted to, without its query string.'),
  headers: described(z.record(z.string(), z.string()), 'The headers kept with the payload: `content-type` only. Signatures and credentials are never stored.'),
  body: described(z.string(), 'The body exactly as received: UTF-8 text, or base64 when `body_encoding` is `base64`.'),
  body_encoding: z.enum(['utf8', 'base64']),
  size: described(z.number().check(z.int()), 'Bytes of the body as received.'),
  payload: described(z.nullable(z.unknown()), 'The body parsed as JSON when it is JSON; null otherwise.'),
});

export const getStoredWebhookPayloadSchemas = {
  params: z.object({ webhook_log_id: WebhookLogId }),
  responses: { 200: z.object({ data: StoredWebhook, meta: ResponseMeta }) },
} as const;

export const deleteStoredWebhookPayloadsSchemas = {
  params: z.object({
    id: described(WebhookLogId, 'The stored delivery to delete, `whk_…`, with its links to every customer it concerns. Any other shape is 404.'),
  }),
  responses: {
    200: z.object({
      data: z.object({
        id: z.string(),
        object: z.literal('webhook_log_cleanup'),
        deleted: described(
          z.boolean(),
          'Whether anything was deleted now; false when nothing is stored under the id (already cleaned up, expired, erased, or never stored).',
        ),
        merchant_id: z.nullable(z.string()),
        payloads_deleted: z.number().check(z.int()),
        links_deleted: described(z.number().check(z.int()), 'Links of a batch delivery to the further customers it concerns.'),
      }),
      meta: ResponseMeta,
    }),
  },
} as const;

const ExportFile = z.object({
  object: z.literal('export_file'),
  merchant_id: z.string(),
  job_id: z.string(),
  content_type: z.string(),
  size: described(z.number().check(z.int()), 'Bytes stored.'),
  location: described(z.string(), 'Where the file is: `s3://<bucket>/exports/<merchant>/<job>` on AWS, a path locally.'),
  download_path: described(z.string(), 'GET it here with the cron secret.'),
});

const UploadText = described(
  z.string(),
  `The file itself, at most ${MAX_EXPORT_TRANSFER_BYTES / 1024 / 1024} MiB of UTF-8 text. JSON lines are checked line by line, JSON as a whole.`,
);

export const uploadExportSchemas = {
  query: z.object({
    merchant_id: described(ExportSegment, 'The merchant the file belongs to (it must exist).'),
    job_id: described(
      ExportSegment,
      'The job the file is the output of: letters, digits, `_` and `-`, at most 64. A file is never replaced: a second upload under the same job is 409.',
    ),
  }),
  documentedBody: {
    description: 'The export file as the body, its type in `Content-Type` (a `charset` other than utf-8 is refused).',
    content: Object.fromEntries(EXPORT_CONTENT_TYPES.map((type) => [type, UploadText])),
  },
  maxBodyBytes: MAX_EXPORT_TRANSFER_BYTES,
  responses: { 201: z.object({ data: ExportFile, meta: ResponseMeta }) },
  errorStatuses: [404],
} as const;

export const downloadExportSchemas = {
  params: z.object({
    merchantId: described(z.string(), 'The merchant whose file it is; an id no file can have (see the upload) is 404.'),
    jobId: described(z.string(), 'The job the file is the output of; 404 when the merchant has no file under it.'),
  }),
  fileResponses: { 200: EXPORT_CONTENT_TYPES },
  errorStatuses: [409],
} as const;
