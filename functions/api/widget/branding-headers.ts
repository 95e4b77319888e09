import { BRANDING_CACHE_SECONDS } from '#services/branding';

/** Branding is public and the same for everyone: CloudFront and browsers keep it as long as the function does. */
export const BRANDING_HEADERS = { 'Cache-Control': `public, max-age=${BRANDING_CACHE_SECONDS}`, 'Access-Control-Allow-Origin': '*' } as const;
