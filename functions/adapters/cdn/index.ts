import type { Cdn, CertificateAuthority } from '#core/custom-hostname-ports';
import { env } from '#shared/env';
import { AcmCertificateAuthority } from './acm-certificates';
import { CloudFrontCdn } from './cloudfront-cdn';
import { LocalCdn, LocalCertificateAuthority } from './local';

/** The certificate authority for `CERTIFICATE_DRIVER` (DESIGN §2: configuration picks the adapter), made once per process. */
export const certificateAuthority: CertificateAuthority = env.CERTIFICATE_DRIVER === 'acm' ? new AcmCertificateAuthority() : new LocalCertificateAuthority();

function cdnFromEnv(): Cdn {
  if (env.CDN_DRIVER === 'local') return new LocalCdn();
  if (env.CLOUDFRONT_DISTRIBUTION_ID === undefined) throw new Error('CLOUDFRONT_DISTRIBUTION_ID is required when CDN_DRIVER is cloudfront');
  return new CloudFrontCdn(env.CLOUDFRONT_DISTRIBUTION_ID);
}

/** The CDN for `CDN_DRIVER`, made once per process. */
export const cdn: Cdn = cdnFromEnv();

/** The name merchants point their CNAME at: CUSTOM_HOST, else `custom.<SERVICE_DOMAIN>`. */
export const customHostTarget = (): string => (env.CUSTOM_HOST ?? `custom.${env.SERVICE_DOMAIN}`).toLowerCase();
