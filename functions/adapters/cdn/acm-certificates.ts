import {
  ACMClient,
  DeleteCertificateCommand,
  DescribeCertificateCommand,
  RequestCertificateCommand,
  ResourceInUseException,
  ResourceNotFoundException,
} from '@aws-sdk/client-acm';
import { logger } from '#shared/logger';
import type { CertificateAuthority, CertificateDescription, CertificateValidationRecord } from '#core/custom-hostname-ports';

/** CloudFront takes certificates from ACM in us-east-1 only, whatever the stack's region. */
export const ACM_REGION = 'us-east-1';

/**
 * The certificate port on AWS Certificate Manager: RequestCertificate with DNS validation,
 * DescribeCertificate for its state and validation records, DeleteCertificate. ACM's
 * PENDING_VALIDATION with every domain validated is reported as `pending_issuance`. A certificate
 * CloudFront still holds (a tenant just deleted) is left in place and logged.
 */
export class AcmCertificateAuthority implements CertificateAuthority {
  constructor(private readonly client: ACMClient = new ACMClient({ region: ACM_REGION })) {}

  async request(hostname: string, idempotencyKey: string): Promise<{ certificateId: string }> {
    const answer = await this.client.send(
      new RequestCertificateCommand({
        DomainName: hostname,
        ValidationMethod: 'DNS',
        // ACM's token: up to 32 word characters; the same within an hour gives the same certificate.
        IdempotencyToken: idempotencyKey.replace(/\W/g, '').slice(0, 32),
        Tags: [{ Key: 'custom-hostname', Value: hostname }],
      }),
    );
    if (answer.CertificateArn === undefined) throw new Error('ACM RequestCertificate answered no CertificateArn');
    return { certificateId: answer.CertificateArn };
  }

  async describe(certificateId: string): Promise<CertificateDescription> {
    const { Certificate } = await this.client.send(new DescribeCertificateCommand({ CertificateArn: certificateId }));
    const options = Certificate?.DomainValidationOptions ?? [];
    const validationRecords: CertificateValidationRecord[] = options.flatMap((option) =>
      option.ResourceRecord?.Name !== undefined && option.ResourceRecord.Value !== undefined
        ? [{ type: 'CNAME' as const, name: option.ResourceRecord.Name.replace(/\.$/, ''), value: option.ResourceRecord.Value.replace(/\.$/, '') }]
        : [],
    );
    switch (Certificate?.Status) {
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
      await this.client.send(new DeleteCertificateCommand({ CertificateArn: certificateId }));
    } catch (error) {
      if (error instanceof ResourceInUseException) {
        // CloudFront releases a deleted tenant's certificate some minutes later: the hostname is
        // deleted all the same, and the (free) certificate is left for the operator, named here.
        logger.warn('ACM certificate still in use; left in place', { certificate_arn: certificateId });
        return;
      }
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }
}
