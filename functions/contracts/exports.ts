/**
 * The S3 key prefix of every data export file (functions/adapters/exports/s3.ts writes nothing
 * else), shared with the infrastructure, which grants PutObject and GetObject under it only and
 * expires what is under it (lib/constructs/export-bucket.ts).
 */
export const EXPORTS_PREFIX = 'exports/';
