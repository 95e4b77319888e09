/**
 * The ports of custom hostnames: the certificate authority that issues a hostname's TLS
 * certificate (ACM on AWS, a deterministic local CA locally) and the CDN that serves it (a
 * CloudFront SaaS Manager distribution tenant on AWS, an in-process record locally), which also
 * purges cached answers. Configuration picks the adapters (functions/adapters/cdn).
 */

/** A DNS record the certificate authority asks for before it issues (ACM's DNS validation CNAME). */
export interface CertificateValidationRecord {
  readonly type: 'CNAME';
  readonly name: string;
  readonly value: string;
}

/** Where a certificate is: waiting for its validation records, validated and being issued, issued, or refused. */
export type CertificateState = 'pending_validation' | 'pending_issuance' | 'issued' | 'failed';

export interface CertificateDescription {
  readonly state: CertificateState;
  readonly validationRecords: readonly CertificateValidationRecord[];
}

export interface CertificateAuthority {
  /** Asks for a certificate of `hostname`; the same `idempotencyKey` within an hour gives the same certificate. */
  request(hostname: string, idempotencyKey: string): Promise<{ readonly certificateId: string }>;
  describe(certificateId: string): Promise<CertificateDescription>;
  /** Deletes the certificate; one already gone is not an error. */
  delete(certificateId: string): Promise<void>;
}

/** What a purge names: one merchant's branding answers, or everything served under one custom hostname. */
export type PurgeTarget = { readonly kind: 'branding'; readonly merchantId: string } | { readonly kind: 'hostname'; readonly tenantId: string };

export interface Cdn {
  /** Serves `hostname` with its certificate; answers the association's id (the distribution tenant). */
  attach(hostname: string, certificateId: string): Promise<{ readonly tenantId: string }>;
  /** Stops serving the hostname; one already gone is not an error. */
  detach(tenantId: string): Promise<void>;
  /** Drops the cached answers the target names; answers the invalidation's id. */
  purge(target: PurgeTarget): Promise<{ readonly invalidationId: string }>;
}
