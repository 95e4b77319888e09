import { Aws, Duration, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { EXPORTS_PREFIX } from '#contracts/exports';
import { removalPolicyFor, type StageName } from '#lib/config/stages';

export interface ExportBucketProps {
  /** @default - none; required */
  readonly stage: StageName;
  /** Days an export file is kept. @default 7 */
  readonly expirationDays?: number;
}

/** Where the functions find the export files, and what they may do there (GroupFunction.bindExportBucket). */
export interface ExportBucketHandle {
  readonly bucketName: string;
  /** The ARN of the objects the exports adapter writes and reads: `…:s3:::<bucket>/exports/*`. */
  readonly objectsArn: string;
  /** cdk-nag's id of the wildcard finding on `objectsArn` (acknowledged on the roles granted it). */
  readonly objectsFindingId: string;
}

/**
 * The bucket's name: fixed per stage, account and Region (bucket names are global), so that the
 * functions' grants name it without a cross-stack reference and cdk-nag's finding on the object
 * wildcard has an id known before synthesis.
 */
const bucketNameOf = (stage: StageName, account: string, region: string): string => `recovery-${stage}-exports-${account}-${region}`;

/**
 * The S3 actions the exports adapter calls (functions/adapters/exports/s3.ts): PutObject (create-only
 * puts; `If-None-Match` needs nothing more) and GetObject (downloads, and HeadObject, which S3
 * authorises as GetObject). No List, no Delete: files expire by the bucket's lifecycle rule.
 */
export const EXPORT_ACTIONS = ['s3:PutObject', 's3:GetObject'] as const;

/**
 * The data export files (issue 16, docs/data-exports.md): a private bucket (public access blocked,
 * ACLs disabled), encrypted at rest (SSE-S3), reachable over TLS only, whose files expire after 7
 * days (exports hold personal data: kept no longer than an operator needs to hand them over).
 * Retained outside dev, like the table.
 */
export class ExportBucket extends Construct implements ExportBucketHandle {
  readonly bucket: Bucket;
  readonly bucketName: string;
  readonly objectsArn: string;
  readonly objectsFindingId: string;

  constructor(scope: Construct, id: string, props: ExportBucketProps) {
    super(scope, id);
    this.bucketName = bucketNameOf(props.stage, Aws.ACCOUNT_ID, Aws.REGION);
    this.bucket = new Bucket(this, 'Bucket', {
      bucketName: this.bucketName,
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: false,
      lifecycleRules: [
        { id: 'expire-exports', prefix: EXPORTS_PREFIX, expiration: Duration.days(props.expirationDays ?? 7) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: removalPolicyFor(props.stage),
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Files are written and read only by the internal API function and the operator CLI under IAM, which CloudTrail records; they expire after 7 days. A server access log bucket would keep requests to personal data longer than the data itself.',
    });
    this.objectsArn = `arn:${Aws.PARTITION}:s3:::${this.bucketName}/${EXPORTS_PREFIX}*`;
    this.objectsFindingId = `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${bucketNameOf(props.stage, '<AWS::AccountId>', '<AWS::Region>')}/${EXPORTS_PREFIX}*]`;
  }
}

/** The one statement a function that uses the exports port gets: the adapter's actions, on the exports prefix only. */
export const exportObjectsStatement = (bucket: ExportBucketHandle): PolicyStatement =>
  new PolicyStatement({ actions: [...EXPORT_ACTIONS], resources: [bucket.objectsArn] });
