import { awsJsonFailure, jsonObjectOf as jsonObject, stringOf } from '#adapters/aws/json-protocol';
import { type AwsClientConfig, AwsServiceError, SignedAwsClient } from '#adapters/aws/signed-request';
import { logger } from '#shared/logger';
import type { CertificateAuthority, CertificateDescription, CertificateValidationRecord } from '#core/custom-hostname-ports';

/** CloudFront takes certificates from ACM in us-east-1 only, whatever the stack's region. */
export const ACM_REGION = 'us-east-1';

const objectOf = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** ACM's JSON 1.1 error answer. */
const acmFailure = awsJsonFailure('ACM');

/**
 * The certificate port on AWS Certificate Manager: RequestCertificate with DNS validation,
 * DescribeCertificate for its state and validation records, DeleteCertificate. ACM's
 * PENDING_VALIDATION with every domain validated is reported as `pending_issuance`. A certificate
 * CloudFront still holds (a tenant just deleted) is left in place and logged. ACM's JSON 1.1 API
 * is called directly, signed with SigV4 (`#adapters/aws/signed-request`), rather than through its
 * SDK client (DESIGN §2: bundle sizes).
 */
export class AcmCertificateAuthority implements CertificateAuthority {
  private readonly client: SignedAwsClient;

  constructor(config: AwsClientConfig = {}) {
    this.client = new SignedAwsClient('acm', (region) => `https://acm.${region}.amazonaws.com`, { region: ACM_REGION, ...config }, acmFailure);
  }

  private async call(operation: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = await this.client.send({
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `CertificateManager.${operation}` },
      body: JSON.stringify(input),
    });
    return jsonObject(answer.body);
  }

  async request(hostname: string, idempotencyKey: string): Promise<{ certificateId: string }> {
    const answer = await this.call('RequestCertificate', {
      DomainName: hostname,
      ValidationMethod: 'DNS',
      // ACM's token: up to 32 word characters; the same within an hour gives the same certificate.
      IdempotencyToken: idempotencyKey.replace(/\W/g, '').slice(0, 32),
      Tags: [{ Key: 'custom-hostname', Value: hostname }],
    });
    const certificateArn = stringOf(answer.CertificateArn);
    if (certificateArn === undefined) throw new Error('ACM RequestCertificate answered no CertificateArn');
    return { certificateId: certificateArn };
  }

  async describe(certificateId: string): Promise<CertificateDescription> {
    const certificate = objectOf((await this.call('DescribeCertificate', { CertificateArn: certificateId })).Certificate);
    const options = (Array.isArray(certificate.DomainValidationOptions) ? certificate.DomainValidationOptions : []).map(objectOf);
    const validationRecords: CertificateValidationRecord[] = options.flatMap((option) => {
      const record = objectOf(option.ResourceRecord);
      const name = stringOf(record.Name);
      const value = stringOf(record.Value);
      return name !== undefined && value !== undefined ? [{ type: 'CNAME' as const, name: name.replace(/\.$/, ''), value: value.replace(/\.$/, '') }] : [];
    });
    switch (certificate.Status) {
      case 'ISSUED':
        return { state: 'issued', validationRecords };
      case 'PENDING_VALIDATION':
        return {
          state: options.length > 0 && options.every((option) => option.ValidationStatus === 'SUCCESS') ? 'pending_issuance' : 'pending_validation',
          validationRecords,
        };
      default:
        return { state: 'failed', validationRecords };
    }
  }

  async delete(certificateId: string): Promise<void> {
    try {
      await this.call('DeleteCertificate', { CertificateArn: certificateId });
    } catch (error) {
      if (error instanceof AwsServiceError && error.code === 'ResourceInUseException') {
        // CloudFront releases a deleted tenant's certificate some minutes later: the hostname is
        // deleted all the same, and the (free) certificate is left for the operator, named here.
        logger.warn('ACM certificate still in use; left in place', { certificate_arn: certificateId });
        return;
      }
      if (!(error instanceof AwsServiceError && error.code === 'ResourceNotFoundException')) throw error;
    }
  }
}
