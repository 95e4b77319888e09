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
