import { createHash } from 'node:crypto';
import { type AwsClientConfig, AwsServiceError, SignedAwsClient, type SignedResponse } from '#adapters/aws/signed-request';
import { child, escapeXml, parseXml, textAt } from '#adapters/aws/xml';
import type { Cdn, PurgeTarget } from '#core/custom-hostname-ports';
import { brandingPaths } from './branding-paths';

const API = '/2020-05-31';
const NAMESPACE = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';

/** CloudFront's REST-XML error answer: `<ErrorResponse><Error><Code>…</Code><Message>…</Message></Error></ErrorResponse>`. */
const cloudFrontFailure = (response: SignedResponse): { code: string; message: string } => {
  const error = parseXml(response.body);
  return {
    code: textAt(error, 'Error', 'Code') || `HTTP${response.status}`,
    message: textAt(error, 'Error', 'Message') || `CloudFront answered HTTP ${response.status}`,
  };
};

const isError = (error: unknown, ...codes: string[]): boolean => error instanceof AwsServiceError && codes.includes(error.code);

const document = (root: string, inner: string): string => `<?xml version="1.0" encoding="UTF-8"?><${root} xmlns="${NAMESPACE}">${inner}</${root}>`;
const element = (name: string, text: string): string => `<${name}>${escapeXml(text)}</${name}>`;
const domains = (names: readonly string[]): string => `<Domains>${names.map((name) => `<member>${element('Domain', name)}</member>`).join('')}</Domains>`;
const invalidationBatch = (callerReference: string, paths: readonly string[]): string =>
  document(
    'InvalidationBatch',
    `<Paths>${element('Quantity', String(paths.length))}<Items>${paths.map((path) => element('Path', path)).join('')}</Items></Paths>${element('CallerReference', callerReference)}`,
  );

/** The tenant in a DistributionTenant answer: its id, distribution, domains and whether it is enabled. */
function tenantOf(response: SignedResponse): { id?: string; distributionId?: string; domains: string[]; enabled: boolean } {
  const tenant = parseXml(response.body);
  const members = child(tenant, 'Domains')?.children ?? [];
  return {
    id: textAt(tenant, 'Id') || undefined,
    distributionId: textAt(tenant, 'DistributionId') || undefined,
    domains: members.flatMap((member) => textAt(member, 'Domain') || []),
    enabled: textAt(tenant, 'Enabled') === 'true',
  };
}

const pathSegment = (value: string): string => encodeURIComponent(value);

/**
 * The CDN port on CloudFront SaaS Manager: each custom hostname is a distribution tenant of the
 * multi-tenant distribution `distributionId`, carrying the hostname as its domain and its ACM
 * certificate. Detaching disables the tenant, then deletes it (CloudFront deletes only disabled
 * tenants). Purges are invalidations: of the tenant (`/*`) for a hostname, of the branding paths
 * on the distribution for a merchant's branding. CloudFront's REST-XML API is called directly,
 * signed with SigV4 (`#adapters/aws/signed-request`), rather than through its SDK client (DESIGN
 * §2: the client alone weighed about 200 KB in each bundle using this adapter).
 */
export class CloudFrontCdn implements Cdn {
  private readonly client: SignedAwsClient;

  constructor(
    private readonly distributionId: string,
    config: Omit<AwsClientConfig, 'region'> = {},
  ) {
    // CloudFront is global: one endpoint, signed for us-east-1 whatever the stack's region.
    this.client = new SignedAwsClient('cloudfront', () => 'https://cloudfront.amazonaws.com', { ...config, region: 'us-east-1' }, cloudFrontFailure);
  }

  async attach(hostname: string, certificateId: string): Promise<{ tenantId: string }> {
    try {
      return await this.createTenant(hostname, certificateId);
    } catch (error) {
      // A check run again after its write lost a race already made the tenant: take that one.
      if (!isError(error, 'CNAMEAlreadyExists', 'EntityAlreadyExists')) throw error;
      const existing = tenantOf(await this.client.send({ method: 'GET', path: `${API}/distribution-tenant`, query: { domain: hostname } }));
      if (existing.id === undefined || existing.distributionId !== this.distributionId) throw error;
      return { tenantId: existing.id };
    }
  }

  private async createTenant(hostname: string, certificateId: string): Promise<{ tenantId: string }> {
    const answer = await this.client.send({
      method: 'POST',
      path: `${API}/distribution-tenant`,
      headers: { 'content-type': 'application/xml' },
      body: document(
        'CreateDistributionTenantRequest',
        element('DistributionId', this.distributionId) +
          // Tenant names: letters, digits, hyphens and dots, unique per account.
          element('Name', `chn-${createHash('sha256').update(hostname).digest('hex').slice(0, 32)}`) +
          domains([hostname]) +
          `<Customizations><Certificate>${element('Arn', certificateId)}</Certificate></Customizations>` +
          element('Enabled', 'true'),
      ),
    });
    const tenantId = tenantOf(answer).id;
    if (tenantId === undefined) throw new Error('CloudFront CreateDistributionTenant answered no tenant id');
    return { tenantId };
  }

  async detach(tenantId: string): Promise<void> {
    const path = `${API}/distribution-tenant/${pathSegment(tenantId)}`;
    try {
      const current = await this.client.send({ method: 'GET', path });
      const tenant = tenantOf(current);
      let etag = current.headers.get('etag') ?? undefined;
      if (tenant.enabled) {
        const disabled = await this.client.send({
          method: 'PUT',
          path,
          headers: { 'content-type': 'application/xml', ...(etag === undefined ? {} : { 'if-match': etag }) },
          body: document(
            'UpdateDistributionTenantRequest',
            (tenant.distributionId === undefined ? '' : element('DistributionId', tenant.distributionId)) +
              domains(tenant.domains) +
              element('Enabled', 'false'),
          ),
        });
        etag = disabled.headers.get('etag') ?? undefined;
      }
      await this.client.send({ method: 'DELETE', path, headers: etag === undefined ? {} : { 'if-match': etag } });
    } catch (error) {
      if (!isError(error, 'EntityNotFound')) throw error;
    }
  }

  async purge(target: PurgeTarget): Promise<{ invalidationId: string }> {
    const callerReference = `${target.kind}-${Date.now()}`;
    const answer = await this.client.send({
      method: 'POST',
      path:
        target.kind === 'hostname'
          ? `${API}/distribution-tenant/${pathSegment(target.tenantId)}/invalidation`
          : `${API}/distribution/${pathSegment(this.distributionId)}/invalidation`,
      headers: { 'content-type': 'application/xml' },
      body: invalidationBatch(callerReference, target.kind === 'hostname' ? ['/*'] : brandingPaths(target.merchantId)),
    });
    const invalidationId = textAt(parseXml(answer.body), 'Id') || undefined;
    if (invalidationId === undefined) throw new Error('CloudFront CreateInvalidation answered no invalidation id');
    return { invalidationId };
  }
}
