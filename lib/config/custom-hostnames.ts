import type { StageName } from './stages';

/**
 * Custom hostnames on AWS (docs/custom-hostnames.md, "Operators"): the service's own domain (no
 * merchant may claim it or a name under it), the custom host merchants point their CNAME at, and
 * the CloudFront SaaS Manager multi-tenant distribution each hostname becomes a tenant of.
 * Contexts: `serviceDomain` (default `<stage>.recovery.example.com`), `customHost` (default
 * `custom.<serviceDomain>`), `customHostnameDistributionId` (no default: without it the CDN port
 * stays the in-process one and no CloudFront permission is granted; see the docs).
 */
export interface CustomHostnamesConfig {
  readonly serviceDomain: string;
  readonly customHost: string;
  readonly distributionId?: string;
}

/** Which of the ports' calls a function makes: the API group (all), the checker (request, describe, attach), edge-internal (purges). */
export type CustomHostnameAccess = 'manage' | 'check' | 'purge';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export function customHostnamesFor(stage: StageName, context: { readonly tryGetContext: (key: string) => unknown }): CustomHostnamesConfig {
  const serviceDomain = text(context.tryGetContext('serviceDomain')) ?? `${stage}.recovery.example.com`;
  const distributionId = text(context.tryGetContext('customHostnameDistributionId'));
  return {
    serviceDomain,
    customHost: text(context.tryGetContext('customHost')) ?? `custom.${serviceDomain}`,
    ...(distributionId === undefined ? {} : { distributionId }),
  };
}

/**
 * The ACM actions each access calls (adapters/cdn/acm-certificates.ts). RequestCertificate sends
 * tags, which ACM authorises as AddTagsToCertificate on the new certificate.
 */
export const ACM_ACTIONS: Readonly<Record<CustomHostnameAccess, readonly string[]>> = {
  manage: ['acm:RequestCertificate', 'acm:AddTagsToCertificate', 'acm:DescribeCertificate', 'acm:DeleteCertificate'],
  check: ['acm:RequestCertificate', 'acm:AddTagsToCertificate', 'acm:DescribeCertificate'],
  purge: [],
};

/** The CloudFront actions each access calls (adapters/cdn/cloudfront-cdn.ts). */
export const CLOUDFRONT_ACTIONS: Readonly<Record<CustomHostnameAccess, readonly string[]>> = {
  // Delete purges the tenant, then disables and deletes it.
  manage: [
    'cloudfront:CreateDistributionTenant',
    'cloudfront:GetDistributionTenantByDomain',
    'cloudfront:GetDistributionTenant',
    'cloudfront:UpdateDistributionTenant',
    'cloudfront:DeleteDistributionTenant',
    'cloudfront:CreateInvalidationForDistributionTenant',
  ],
  // Attach takes the tenant already made for the hostname (a check run again) by its domain.
  check: ['cloudfront:CreateDistributionTenant', 'cloudfront:GetDistributionTenantByDomain'],
  purge: ['cloudfront:CreateInvalidation', 'cloudfront:CreateInvalidationForDistributionTenant'],
};
