import { cdn } from '#adapters/cdn/index';
import type { CacheKind } from '#core/custom-hostnames';
import { ResourceNotFoundError } from '#core/errors';
import { findClaimedHostname } from '#data/custom-hostname-repository';
import { getMerchant } from '#data/merchant-repository';
import { forgetBranding } from './branding';

export interface CachePurge {
  readonly kind: CacheKind;
  readonly key: string;
  /** Whether this function held the entry in its own cache (and dropped it). */
  readonly function_cache_cleared: boolean;
  /** The CDN invalidation made; null when the CDN serves nothing for the key (a hostname not active yet). */
  readonly cdn_invalidation_id: string | null;
}

/**
 * POST /api/internal/cache/invalidate: purges a merchant's branding (`key` = merchant id: this
 * function's cache entry and the branding paths on the CDN) or a custom hostname's cache (`key` =
 * the hostname: everything the CDN cached under it). 404 `param: key` for an unknown merchant or a
 * hostname nobody holds.
 */
export async function purgeCache(kind: CacheKind, key: string): Promise<CachePurge> {
  if (kind === 'branding') {
    if ((await getMerchant(key)) === undefined) throw new ResourceNotFoundError(`No merchant ${key}`, { param: 'key' });
    const cleared = forgetBranding(key);
    const { invalidationId } = await (await cdn()).purge({ kind: 'branding', merchantId: key });
    return { kind, key, function_cache_cleared: cleared, cdn_invalidation_id: invalidationId };
  }
  const hostname = key.trim().toLowerCase().replace(/\.$/, '');
  const record = await findClaimedHostname(hostname);
  if (record === undefined) throw new ResourceNotFoundError(`No custom hostname ${hostname}`, { param: 'key' });
  const invalidation = record.cdn_tenant_id === null ? null : await (await cdn()).purge({ kind: 'hostname', tenantId: record.cdn_tenant_id });
  return { kind, key: hostname, function_cache_cleared: false, cdn_invalidation_id: invalidation?.invalidationId ?? null };
}
