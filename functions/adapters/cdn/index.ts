import type { Cdn, CertificateAuthority } from '#core/custom-hostname-ports';
import { env } from '#shared/env';
import { LocalCdn, LocalCertificateAuthority } from './local';

// The AWS adapters are imported on first use: their SDK clients (ACM, CloudFront) stay off the
// cold start of the functions that bundle them (the public branding page shares one with the
// custom-hostname operations) and are never loaded by the local drivers.
let authority: Promise<CertificateAuthority> | undefined;
let network: Promise<Cdn> | undefined;

/** The certificate authority for `CERTIFICATE_DRIVER` (DESIGN §2: configuration picks the adapter), made once per process. */
export function certificateAuthority(): Promise<CertificateAuthority> {
  authority ??=
    env.CERTIFICATE_DRIVER === 'acm'
      ? import('./acm-certificates').then(({ AcmCertificateAuthority }) => new AcmCertificateAuthority())
      : Promise.resolve(new LocalCertificateAuthority());
  return authority;
}

/** The CDN for `CDN_DRIVER`, made once per process. */
export function cdn(): Promise<Cdn> {
  network ??= (async () => {
    if (env.CDN_DRIVER === 'local') return new LocalCdn();
    if (env.CLOUDFRONT_DISTRIBUTION_ID === undefined) throw new Error('CLOUDFRONT_DISTRIBUTION_ID is required when CDN_DRIVER is cloudfront');
    const { CloudFrontCdn } = await import('./cloudfront-cdn');
    return new CloudFrontCdn(env.CLOUDFRONT_DISTRIBUTION_ID);
  })();
  return network;
}

/** The name merchants point their CNAME at: CUSTOM_HOST, else `custom.<SERVICE_DOMAIN>`. */
export const customHostTarget = (): string => (env.CUSTOM_HOST ?? `custom.${env.SERVICE_DOMAIN}`).toLowerCase();
