import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { CfnIndex, CfnVectorBucket } from 'aws-cdk-lib/aws-s3vectors';
import { Construct } from 'constructs';
import { VECTOR_DIMENSION } from '#core/vectors/features';
import { removalPolicyFor, type StageName } from '#lib/config/stages';

export interface VectorIndexProps {
  /** @default - none; required */
  readonly stage: StageName;
}

/** Where the functions find the index, and what they may do there (GroupFunction.bindVectorIndex). */
export interface VectorIndexHandle {
  readonly bucketName: string;
  readonly indexName: string;
  readonly indexArn: string;
}

/** The index's name (S3_VECTORS_INDEX's default, functions/shared/env.ts). */
export const VECTOR_INDEX_NAME = 'recoveries';

/**
 * Metadata keys the adapter writes (functions/adapters/vectors/s3-vectors-store.ts) that no query
 * filters on: kept with each vector, returned with matches, not indexed. The others (merchant_id,
 * customer_id, outcome, strategy) stay filterable, as S3 Vectors makes every undeclared key.
 */
export const NON_FILTERABLE_METADATA_KEYS = ['id', 'decline_code'] as const;

/**
 * The S3 Vectors actions the adapter calls: PutVectors (embedding), QueryVectors (similar
 * recoveries, erasure's lookup), GetVectors (delete's existence check, and QueryVectors with a
 * filter or metadata needs it), DeleteVectors (forgetting a payment, erasure).
 */
export const VECTOR_ACTIONS = ['s3vectors:PutVectors', 's3vectors:QueryVectors', 's3vectors:GetVectors', 's3vectors:DeleteVectors'] as const;

/**
 * Amazon S3 Vectors for the similar-recoveries search (issue 15, DESIGN §2c): one vector bucket
 * and one index for every merchant, `merchant_id` a filter key on every query. The index has the
 * feature vector's dimension (functions/core/vectors/features.ts), the cosine distance metric
 * and float32 data; bucket and index are retained outside dev, like the table.
 */
export class VectorIndex extends Construct implements VectorIndexHandle {
  readonly bucketName: string;
  readonly indexName = VECTOR_INDEX_NAME;
  readonly indexArn: string;

  constructor(scope: Construct, id: string, props: VectorIndexProps) {
    super(scope, id);
    const removalPolicy = removalPolicyFor(props.stage);
    // Vector bucket names are unique per account and Region; one stage has one.
    this.bucketName = `recovery-${props.stage}-vectors`;
    const bucket = new CfnVectorBucket(this, 'Bucket', { vectorBucketName: this.bucketName, encryptionConfiguration: { sseType: 'AES256' } });
    bucket.applyRemovalPolicy(removalPolicy);
    const index = new CfnIndex(this, 'Index', {
      vectorBucketName: this.bucketName,
      indexName: this.indexName,
      dimension: VECTOR_DIMENSION,
      distanceMetric: 'cosine',
      dataType: 'float32',
      metadataConfiguration: { nonFilterableMetadataKeys: [...NON_FILTERABLE_METADATA_KEYS] },
    });
    index.addResourceDependency(bucket);
    index.applyRemovalPolicy(removalPolicy);
    this.indexArn = index.attrIndexArn;
  }
}

/** The one statement a function that uses the index gets: the adapter's actions, on that index only. */
export const vectorIndexStatement = (index: VectorIndexHandle): PolicyStatement =>
  new PolicyStatement({ actions: [...VECTOR_ACTIONS], resources: [index.indexArn] });
