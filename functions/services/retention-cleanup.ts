import { deleteExpiredPayload, findExpiredPayloads } from '#data/retention-repository';

/** Entries read per page of the retention index (an even share from each shard). */
export const RETENTION_PAGE_SIZE = 400;
/** Pages per run at most (bounded work in the daily job's 15 minutes); the next run takes what is left. */
export const RETENTION_MAX_PAGES = 50;
/** Deletes in flight at once. */
const CONCURRENCY = 25;

export type RetentionSummary = {
  readonly deleted: number;
  /** Entries whose item was gone already (TTL, erasure, a concurrent run) or not yet expired. */
  readonly skipped: number;
  readonly pages: number;
  /** Whether the run stopped at its last page (RETENTION_MAX_PAGES) with entries maybe left. */
  readonly more: boolean;
};

/**
 * The daily task `retention-cleanup`: deletes every stored payload (provider webhook deliveries,
 * outbound events) whose 30 days are over at `now`, every merchant, read from the retention index
 * in bounded pages (never a Scan). DynamoDB's TTL deletes the same items eventually (up to days
 * late; never on DynamoDB Local): this task is the guarantee. Each delete is conditional on the
 * item's own expiry, so a rerun the same day finds nothing left and deletes nothing more.
 *
 * @example await cleanUpRetention(new Date('2026-11-25T08:00:00Z')) // { deleted: 12, skipped: 0, pages: 1, more: false }
 */
export async function cleanUpRetention(
  now: Date,
  bounds: { readonly pageSize: number; readonly maxPages: number } = { pageSize: RETENTION_PAGE_SIZE, maxPages: RETENTION_MAX_PAGES },
): Promise<RetentionSummary> {
  let deleted = 0;
  let skipped = 0;
  for (let page = 1; page <= bounds.maxPages; page += 1) {
    const expired = await findExpiredPayloads(now, bounds.pageSize);
    let deletedNow = 0;
    for (let i = 0; i < expired.length; i += CONCURRENCY) {
      const results = await Promise.all(expired.slice(i, i + CONCURRENCY).map((payload) => deleteExpiredPayload(payload.key, now)));
      deletedNow += results.filter(Boolean).length;
    }
    deleted += deletedNow;
    skipped += expired.length - deletedNow;
    // Nothing left, or only entries the index still shows for items gone (it trails the deletes).
    if (expired.length === 0 || deletedNow === 0) return { deleted, skipped, pages: page, more: false };
  }
  return { deleted, skipped, pages: bounds.maxPages, more: true };
}
