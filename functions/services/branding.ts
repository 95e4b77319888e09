import type { Branding } from '#core/hosted';
import { getHostedSettings } from '#data/hosted-settings-repository';
import { getMerchantCached } from '#data/merchant-repository';

/**
 * The merchant's public branding (logo, colour, name) for the hosted pages and the widget, in its
 * own module so that the groups that show it (widget, custom-hostname, cancel page) bundle no
 * widget-secret code.
 */

/** DESIGN (spec limits): branding is cached 5 minutes, in the function as in CloudFront and browsers. */
export const BRANDING_CACHE_SECONDS = 300;
const MAX_CACHED_BRANDING = 1000;
const brandingCache = new Map<string, { readonly branding: Branding | undefined; readonly until: number }>();

/**
 * The merchant's public branding, the merchant's name standing in for an unset merchant_name;
 * undefined for an unknown merchant. Kept {@link BRANDING_CACHE_SECONDS} per warm function (at most
 * 1000 merchants, the oldest entry dropped first), so a page view costs no read.
 */
export async function brandingOf(merchantId: string, now: Date = new Date()): Promise<Branding | undefined> {
  const hit = brandingCache.get(merchantId);
  if (hit !== undefined && hit.until > now.getTime()) return hit.branding;
  const [merchant, settings] = await Promise.all([getMerchantCached(merchantId, now.getTime()), getHostedSettings(merchantId)]);
  const branding = merchant === undefined ? undefined : { ...settings.branding, merchant_name: settings.branding.merchant_name ?? merchant.name };
  brandingCache.delete(merchantId);
  if (brandingCache.size >= MAX_CACHED_BRANDING) brandingCache.delete(brandingCache.keys().next().value as string);
  brandingCache.set(merchantId, { branding, until: now.getTime() + BRANDING_CACHE_SECONDS * 1000 });
  return branding;
}

/** Drops this function's cached branding of a merchant (POST /api/internal/cache/invalidate); answers whether there was one. */
export function forgetBranding(merchantId: string): boolean {
  return brandingCache.delete(merchantId);
}
