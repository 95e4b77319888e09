import { defineOperation } from '#api/operation';
import { envelope } from '#api/pipeline/responses';
import { purgeCache } from '#services/cache-purge';
import { invalidateCacheSchemas } from './schemas';

/**
 * POST /api/internal/cache/invalidate (shared cron secret): purges a branding or custom-hostname
 * cache entry, `{ kind, key }`. The pipeline checks the secret first (401, nothing read), then the
 * body (a bad kind is 422 `param: kind`).
 */
export const invalidateCache = defineOperation({ auth: 'cron_secret', schemas: invalidateCacheSchemas }, async ({ body, requestId }) => {
  const purged = await purgeCache(body.kind, body.key);
  return { body: envelope(purged, requestId) };
});
