import { customHostnameIdFor } from '#data/entities/custom-hostname';
import { findDueCustomHostnames } from '#data/custom-hostname-repository';
import { checkDueCustomHostname } from '#services/custom-hostnames';
import { logger } from '#shared/logger';
import type { JobTaskInput, JobTaskSummary } from './run-job';

/** Due hostnames one run checks; the rest wait for the next minute. */
export const MAX_DUE_HOSTNAMES_PER_RUN = 200;
/** Checks (DNS lookups, certificate and CDN calls) in flight at once. */
const CONCURRENCY = 8;

/**
 * The every-minute task `check-custom-hostnames`: every pending or active hostname whose next check
 * is due (the sparse hostname check index, keys.ts customHostnameDueKeys; one Query per shard, no
 * Scan) is checked again. Pending ones follow Cloudflare's backoff (min(60·1.05ⁿ s, 4 h)) and are
 * blocked 7 days after they were provisioned; active ones are checked daily (moved when their CNAME
 * left). Each check writes conditionally on the version it read, so overlapping runs check once.
 */
export async function checkCustomHostnames(input: JobTaskInput, options: { readonly limit?: number } = {}): Promise<JobTaskSummary> {
  const due = await findDueCustomHostnames(input.now, options.limit ?? MAX_DUE_HOSTNAMES_PER_RUN);
  const counts = { due: due.length, checked: 0, active: 0, blocked: 0, moved: 0, skipped: 0, failed: 0 };
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let entry = due[next++]; entry !== undefined; entry = due[next++]) {
      try {
        const after = await checkDueCustomHostname(entry.merchantId, customHostnameIdFor(entry.body), input.now);
        if (after === undefined) {
          counts.skipped += 1;
          continue;
        }
        counts.checked += 1;
        if (after.status === 'active' || after.status === 'blocked' || after.status === 'moved') counts[after.status] += 1;
      } catch (error) {
        counts.failed += 1;
        logger.error('custom hostname check failed', { merchant_id: entry.merchantId, hostname_id: customHostnameIdFor(entry.body), error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, Math.max(1, due.length)) }, worker));
  return counts;
}
