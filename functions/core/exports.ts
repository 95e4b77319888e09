/**
 * Data export files (issue 16): the exports port, the names a file is stored under, and what an
 * export job records. No AWS here: the adapters (functions/adapters/exports) implement the port.
 */
import { ValidationError } from './errors';

/**
 * A merchant id or job id as a file is stored under it: letters, digits, `_` and `-`, 1 to 64
 * characters. No `.`, `/` or `\`, so no name built from one can leave its directory or prefix.
 */
const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

export const isExportSegment = (value: string): boolean => SEGMENT.test(value);

/** Refuses a name no export file can have before any path or object key is built from it (a programming error past the API's own checks). */
export function checkExportSegments(merchantId: string, jobId: string): void {
  if (!isExportSegment(merchantId)) throw new ValidationError('The merchant id cannot name an export file.', { param: 'merchant_id' });
  if (!isExportSegment(jobId)) throw new ValidationError('The job id cannot name an export file.', { param: 'job_id' });
}

/**
 * What an export file may be: text, so that the REST API returns it as sent (the APIs declare no
 * binary media types) and so that an operator can read it. The export job writes JSON lines.
 */
export const EXPORT_CONTENT_TYPES = ['application/x-ndjson', 'application/json', 'text/csv', 'text/plain'] as const;
export type ExportContentType = (typeof EXPORT_CONTENT_TYPES)[number];

export const JSON_LINES: ExportContentType = 'application/x-ndjson';

/** The file name extension of each content type (the download's Content-Disposition). */
export const EXPORT_EXTENSIONS: Readonly<Record<ExportContentType, string>> = {
  'application/x-ndjson': 'jsonl',
  'application/json': 'json',
  'text/csv': 'csv',
  'text/plain': 'txt',
};

/**
 * The largest file POST /internal/exports/upload takes, and the largest GET /internal/exports/…
 * returns: a Lambda's request and response payloads are limited to 6 MB, so 4 MiB leaves room
 * for the rest of the event. Files the export job writes may be larger; they are read from the
 * store directly (the location it prints).
 */
export const MAX_EXPORT_TRANSFER_BYTES = 4 * 1024 * 1024;

/** A stored export file. */
export interface ExportFile {
  readonly contentType: string;
  readonly bytes: Buffer;
}

/** What a put stored. */
export interface StoredExport {
  readonly location: string;
  readonly size: number;
}

/**
 * The exports port: one file per merchant and job. `put` creates and never replaces (an existing
 * file is a StateConflictError), so an upload cannot overwrite what a job wrote; `get` answers
 * undefined when there is no file; `location` is where the file is (an `s3://` URL or a path).
 */
export interface ExportStore {
  readonly name: 'filesystem' | 's3';
  put(merchantId: string, jobId: string, content: Buffer | AsyncIterable<Uint8Array>, contentType: string): Promise<StoredExport>;
  /** The file's size and content type without its bytes; undefined when absent. */
  head(merchantId: string, jobId: string): Promise<{ readonly contentType: string; readonly size: number } | undefined>;
  get(merchantId: string, jobId: string): Promise<ExportFile | undefined>;
  location(merchantId: string, jobId: string): string;
}

/** Where GET /api/v1/internal/exports/{merchantId}/{jobId} serves a file (the upload's answer, the CLI's `download_path`). */
export const exportDownloadPath = (merchantId: string, jobId: string): string => `/api/v1/internal/exports/${merchantId}/${jobId}`;

export const EXPORT_JOB_STATES = ['running', 'succeeded', 'failed'] as const;
export type ExportJobState = (typeof EXPORT_JOB_STATES)[number];

/** Lines of each kind an export holds. */
export interface ExportCounts {
  readonly payments: number;
  readonly recoveries: number;
  readonly customers: number;
}

/** A merchant data export job (`exp_<time-ordered body>`). */
export interface ExportJobRecord {
  readonly id: string;
  readonly merchant_id: string;
  readonly state: ExportJobState;
  readonly content_type: string;
  readonly counts: ExportCounts;
  /** Bytes written; 0 until the job succeeds. */
  readonly size: number;
  /** Where the file is once written (ExportStore.location); null before. */
  readonly location: string | null;
  /** Why the job failed (no internals); null otherwise. */
  readonly error: string | null;
  readonly created_at: string;
  readonly finished_at: string | null;
}
