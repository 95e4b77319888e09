import {
  CloudFrontClient,
  CNAMEAlreadyExists,
  CreateDistributionTenantCommand,
  CreateInvalidationCommand,
  CreateInvalidationForDistributionTenantCommand,
  DeleteDistributionTenantCommand,
  EntityAlreadyExists,
  EntityNotFound,
  GetDistributionTenantByDomainCommand,
  GetDistributionTenantCommand,
  UpdateDistributionTenantCommand,
} from '@aws-sdk/client-cloudfront';
import { createHash } from 'node:crypto';
import type { Cdn, PurgeTarget } from '#core/custom-hostname-ports';
import { brandingPaths } from './branding-paths';

/**
 * The CDN port on CloudFront SaaS Manager: each custom hostname is a distribution tenant of the
 * multi-tenant distribution `distributionId`, carrying the hostname as its domain and its ACM
 * certificate. Detaching disables the tenant, then deletes it (CloudFront deletes only disabled
 * tenants). Purges are invalidations: of the tenant (`/*`) for a hostname, of the branding paths
 * on the distribution for a merchant's branding.
 */
export class CloudFrontCdn implements Cdn {
  constructor(
    private readonly distributionId: string,
    private readonly client: CloudFrontClient = new CloudFrontClient({}),
  ) {}

  async attach(hostname: string, certificateId: string): Promise<{ tenantId: string }> {
    try {
      return await this.createTenant(hostname, certificateId);
    } catch (error) {
      // A check run again after its write lost a race already made the tenant: take that one.
      if (!(error instanceof CNAMEAlreadyExists || error instanceof EntityAlreadyExists)) throw error;
      const existing = await this.client.send(new GetDistributionTenantByDomainCommand({ Domain: hostname }));
      const tenantId = existing.DistributionTenant?.Id;
      if (tenantId === undefined || existing.DistributionTenant?.DistributionId !== this.distributionId) throw error;
      return { tenantId };
    }
  }

  private async createTenant(hostname: string, certificateId: string): Promise<{ tenantId: string }> {
    const answer = await this.client.send(
      new CreateDistributionTenantCommand({
        DistributionId: this.distributionId,
        // Tenant names: letters, digits, hyphens and dots, unique per account.
        Name: `chn-${createHash('sha256').update(hostname).digest('hex').slice(0, 32)}`,
        Domains: [{ Domain: hostname }],
        Customizations: { Certificate: { Arn: certificateId } },
        Enabled: true,
      }),
    );
    const tenantId = answer.DistributionTenant?.Id;
    if (tenantId === undefined) throw new Error('CloudFront CreateDistributionTenant answered no tenant id');
    return { tenantId };
  }

  async detach(tenantId: string): Promise<void> {
    try {
      const current = await this.client.send(new GetDistributionTenantCommand({ Identifier: tenantId }));
      const tenant = current.DistributionTenant;
      let etag = current.ETag;
      if (tenant?.Enabled === true) {
        const disabled = await this.client.send(
          new UpdateDistributionTenantCommand({
            Id: tenantId,
            IfMatch: etag,
            DistributionId: tenant.DistributionId,
            Domains: tenant.Domains?.map((domain) => ({ Domain: domain.Domain })),
            Enabled: false,
          }),
        );
        etag = disabled.ETag;
      }
      await this.client.send(new DeleteDistributionTenantCommand({ Id: tenantId, IfMatch: etag }));
    } catch (error) {
      if (!(error instanceof EntityNotFound)) throw error;
    }
  }

  async purge(target: PurgeTarget): Promise<{ invalidationId: string }> {
    const callerReference = `${target.kind}-${Date.now()}`;
    const answer =
      target.kind === 'hostname'
        ? await this.client.send(
            new CreateInvalidationForDistributionTenantCommand({
              Id: target.tenantId,
              InvalidationBatch: { CallerReference: callerReference, Paths: { Quantity: 1, Items: ['/*'] } },
            }),
          )
        : await this.client.send(
            new CreateInvalidationCommand({
              DistributionId: this.distributionId,
              InvalidationBatch: {
                CallerReference: callerReference,
                Paths: { Quantity: brandingPaths(target.merchantId).length, Items: brandingPaths(target.merchantId) },
              },
            }),
          );
    const invalidationId = answer.Invalidation?.Id;
    if (invalidationId === undefined) throw new Error('CloudFront CreateInvalidation answered no invalidation id');
    return { invalidationId };
  }
}
