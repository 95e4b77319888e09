import { type RouteDef, at } from '#api/route-rows';
import { invalidateCacheSchemas, updateScoreLookupSchemas } from './schemas';

/** The `edge-internal` group's rows of the route table: its Lambda serves exactly these. */
export const edgeInternalRoutes: readonly RouteDef[] = [
  at('edge', 'edge-internal', 'POST', '/api/internal/cache/invalidate', 'invalidateCache', 'cron_secret', [], 'Purge a cache entry', invalidateCacheSchemas),
  at(
    'edge',
    'edge-internal',
    'POST',
    '/api/internal/scoring/update-lookup',
    'updateScoreLookup',
    'cron_secret',
    [],
    'Seed the pre-computed score table',
    updateScoreLookupSchemas,
  ),
];
