/**
 * Settings of the table stream's consumers that the CDK event source mappings and the local
 * stream pollers (lib/local/local-runtime.ts) must share. Pure data.
 */

/** The dispatcher's event source mapping settings (CDK's and the local poller's; the infra test asserts them). */
export const OUTBOUND_DISPATCH_SOURCE = {
  /** Small batches: a record's whole fan-out is a few messages, and the first attempt should start within seconds. */
  batchSize: 25,
  maxBatchingWindowSeconds: 0,
  retryAttempts: 10,
  /** Events still undelivered after a day are better reported (DLQ) than sent a day late as first attempts. */
  maxRecordAgeHours: 24,
} as const;

/** The auto-embedding consumer's event source mapping settings (functions/consumers/embed-recoveries.ts; CDK's and the local poller's). */
export const EMBED_RECOVERIES_SOURCE = {
  /** Each record is at most one S3 Vectors call; moderate batches keep a retried batch short. */
  batchSize: 50,
  /** Embedding is not urgent: a few seconds' window makes fewer, fuller invocations. */
  maxBatchingWindowSeconds: 5,
  retryAttempts: 10,
  /** The stream keeps records for 24 hours: one not embedded by then is reported (DLQ) for an operator to re-embed. */
  maxRecordAgeHours: 24,
} as const;
