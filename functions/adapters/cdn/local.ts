import { createHash } from 'node:crypto';
import type { Cdn, CertificateAuthority, CertificateDescription, PurgeTarget } from '#core/custom-hostname-ports';
import { brandingPaths } from './branding-paths';

const digest = (value: string): string => createHash('sha256').update(value).digest('hex').slice(0, 24);

/**
 * The local certificate authority (local stack and tests; not a real CA, and it says so in its
 * ids): the service asks for a certificate only once the hostname's CNAME and TXT records are
 * right, and this CA takes that as its validation, so every certificate is issued at once. Ids are
 * deterministic (`local-ca:<hash of the hostname>`): asking twice gives the same certificate.
 */
export class LocalCertificateAuthority implements CertificateAuthority {
  async request(hostname: string): Promise<{ certificateId: string }> {
    return { certificateId: `local-ca:${digest(hostname)}` };
  }

  async describe(): Promise<CertificateDescription> {
    return { state: 'issued', validationRecords: [] };
  }

  async delete(): Promise<void> {}
}

/** One call the local CDN received, for the operator (and tests) to see what AWS would have been asked. */
export type LocalCdnCall =
  | { readonly action: 'attach'; readonly hostname: string; readonly certificateId: string; readonly tenantId: string }
  | { readonly action: 'detach'; readonly tenantId: string }
  | { readonly action: 'purge'; readonly target: PurgeTarget; readonly paths: readonly string[]; readonly invalidationId: string };

const calls: LocalCdnCall[] = [];
let invalidations = 0;

/** The calls the local CDN received in this process, oldest first. */
export const localCdnCalls = (): readonly LocalCdnCall[] => [...calls];

/** The local CDN: keeps each association and purge in the process (there is no cache in front of the local stack to purge). */
export class LocalCdn implements Cdn {
  async attach(hostname: string, certificateId: string): Promise<{ tenantId: string }> {
    const tenantId = `local-tenant:${digest(hostname)}`;
    calls.push({ action: 'attach', hostname, certificateId, tenantId });
    return { tenantId };
  }

  async detach(tenantId: string): Promise<void> {
    calls.push({ action: 'detach', tenantId });
  }

  async purge(target: PurgeTarget): Promise<{ invalidationId: string }> {
    invalidations += 1;
    const invalidationId = `local-invalidation-${invalidations}`;
    calls.push({ action: 'purge', target, paths: target.kind === 'branding' ? brandingPaths(target.merchantId) : ['/*'], invalidationId });
    return { invalidationId };
  }
}
