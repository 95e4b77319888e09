import * as path from 'node:path';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { type ITable, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { RATE_LIMIT_PREFIX } from '#data/keys';
import type { QueueDefinition } from '#contracts/queues';
import { tableDefinition } from '#data/table-definition';
import type { CrmApps } from '#lib/config/crm-apps';
import { logRetentionFor, removalPolicyFor, SERVICE_VERSION, type StageName } from '#lib/config/stages';
import { ACM_ACTIONS, CLOUDFRONT_ACTIONS, type CustomHostnameAccess, type CustomHostnamesConfig } from '#lib/config/custom-hostnames';
import { bundleDefinesFor } from '#lib/function-bundles';
import { type VectorIndexHandle, vectorIndexStatement } from './vector-index';
import { type ExportBucketHandle, exportObjectsStatement } from './export-bucket';

/** The repository root: esbuild resolves every entry and `package-lock.json` from here. */
export const PROJECT_ROOT = path.resolve(__dirname, '../..');

/** A queue together with its definition (for the URL variable's name). */
export interface QueueHandle {
  readonly definition: QueueDefinition;
  readonly queue: IQueue;
}

export type TableAccess = 'RO' | 'RW';

/** The CRM integrations' secrets (DataStack): the key of the OAuth states, and each CRM app's client secret. */
export interface CrmSecrets {
  readonly stateSigningSecret: ISecret;
  readonly crmAClientSecret: ISecret;
  readonly crmBClientSecret: ISecret;
}

const INDEX_NAMES = tableDefinition.globalSecondaryIndexes.map((index) => index.indexName);

export interface GroupFunctionProps {
  /**
   * The handler file, relative to the repository root, exporting `handler`.
   * @default - none; required
   */
  readonly entry: string;
  /** @default - none; required */
  readonly stage: StageName;
  /** @default 512 */
  readonly memorySize?: number;
  /** @default Duration.seconds(10) */
  readonly timeout?: Duration;
  /**
   * Queues this function may send to: each is granted `sqs:SendMessage` and its URL is set in the
   * variable its definition names. Anything not listed here cannot be enqueued by this function.
   * @default - none
   */
  readonly sendsTo?: readonly QueueHandle[];
  /**
   * Target for failed asynchronous invocations. Only asynchronously invoked functions (scheduled
   * jobs) have one; API Gateway and SQS invoke synchronously and handle failures themselves.
   * @default - none
   */
  readonly deadLetterQueue?: IQueue;
  /** @default - 3 months outside dev, 1 week in dev (logRetentionFor) */
  readonly logRetention?: RetentionDays;
  /** @default - none */
  readonly description?: string;
}

/**
 * One Lambda function with the project's defaults (style.md rule 7): Node.js 22 on arm64, active
 * tracing, JSON logs into an explicit log group with retention, a minified esbuild bundle with the
 * AWS SDK inside it, and least-privilege grants added explicitly by the caller.
 *
 * @example
 * const fn = new GroupFunction(this, 'Payments', { entry: 'functions/api/payments/handler.ts', stage });
 * fn.bindTable(table, 'RW');
 */
export class GroupFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: GroupFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logRetentionFor(props.stage),
      removalPolicy: removalPolicyFor(props.stage),
    });
    // Our own role instead of AWSLambdaBasicExecutionRole: it may write to this log group only.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(PROJECT_ROOT, props.entry),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      tracing: Tracing.ACTIVE,
      description: props.description,
      deadLetterQueue: props.deadLetterQueue,
      environment: {
        STAGE: props.stage,
        SERVICE_VERSION,
        NODE_OPTIONS: '--enable-source-maps',
      },
      bundling: {
        // CJS: every dependency loads under require (zod 4 ships CJS, @middy/core 6 is ESM without
        // top-level await, which esbuild converts), and CJS needs no createRequire banner for the
        // SDK's dynamic requires of Node built-ins, which an ESM bundle would.
        format: OutputFormat.CJS,
        target: 'node22',
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        // Bundle the SDK v3 clients we use instead of the runtime's copy: the versions we tested,
        // tree-shaken to what we call.
        externalModules: [],
        define: bundleDefinesFor(props.entry, SERVICE_VERSION),
      },
    });
    this.logGroup.grantWrite(role);
    for (const { definition, queue } of props.sendsTo ?? []) {
      queue.grantSendMessages(this.function);
      this.function.addEnvironment(definition.urlEnv, queue.queueUrl);
    }
    const runtimeReason =
      'DESIGN §2 pins Node.js 22 (nodejs22.x, supported by AWS Lambda); moving to a newer major is a deliberate upgrade with its own test run.';
    Validations.of(this.function).acknowledge(
      { id: 'AwsSolutions-L1', reason: runtimeReason },
      { id: 'Serverless-LambdaLatestVersion', reason: runtimeReason },
    );
    if (props.deadLetterQueue === undefined) {
      Validations.of(this.function).acknowledge({
        id: 'Serverless-LambdaDLQ',
        reason:
          'Invoked synchronously (API Gateway, or an SQS event source mapping whose queue has its own DLQ): failures return to the caller, so an async DLQ would never receive a message.',
      });
    }
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Active X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.',
    });
  }

  /**
   * Grants data access to the table and sets `TABLE_NAME`: read-only for groups that only read
   * (every row GET), read-write otherwise. Never grants table management actions.
   */
  bindTable(table: ITable, access: TableAccess, indexNames: readonly string[] = INDEX_NAMES): void {
    // The grants on a table reference without indexes stop CDK from adding `<table>/index/*`;
    // the indexes are then named one by one, and only queried (DESIGN §2: no Scan in requests).
    const tableOnly = Table.fromTableArn(this, 'TableRef', table.tableArn);
    if (access === 'RO') tableOnly.grantReadData(this.function);
    else tableOnly.grantReadWriteData(this.function);
    this.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: indexNames.map((indexName) => `${table.tableArn}/index/${indexName}`),
      }),
    );
    this.function.addEnvironment('TABLE_NAME', table.tableName);
  }

  /**
   * Lets a read-only group count its requests: UpdateItem only on rate-limit windows, whose
   * partition keys start with `RL#` (functions/data/keys.ts), and on no other item.
   */
  bindRateLimitWindows(table: ITable): void {
    this.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_LIMIT_PREFIX}*`] } },
      }),
    );
  }

  /** Gives the function the key that signs list cursors, read once per cold start. */
  bindCursorSecret(secret: ISecret): void {
    secret.grantRead(this.function);
    this.function.addEnvironment('CURSOR_SIGNING_SECRET_ARN', secret.secretArn);
  }

  /** Gives the function the shared secret of the internal (`cron_secret`) routes, read once per cold start. */
  bindCronSecret(secret: ISecret): void {
    secret.grantRead(this.function);
    this.function.addEnvironment('CRON_SECRET_ARN', secret.secretArn);
  }

  /** Lets the function seal and open secrets at rest with the secrets key (KMS Encrypt/Decrypt on that key only). */
  bindSecretsKey(key: IKey): void {
    // Encrypt and Decrypt only (grantEncryptDecrypt would add ReEncrypt* and GenerateDataKey*, which the secret box never calls).
    key.grant(this.function, 'kms:Encrypt', 'kms:Decrypt');
    this.function.addEnvironment('SECRET_BOX_DRIVER', 'kms');
    this.function.addEnvironment('SECRETS_KMS_KEY_ID', key.keyArn);
  }

  /**
   * Gives the function the CRM apps: origins, client ids and redirect URIs as plain variables, and
   * the client secrets and the state key as Secrets Manager ARNs it may read (each once per cold start).
   */
  bindCrmApps(apps: CrmApps, secrets: CrmSecrets): void {
    const variables: Record<string, string | undefined> = {
      CRM_A_API_BASE_URL: apps.crmAApiBaseUrl,
      CRM_A_AUTHORIZE_BASE_URL: apps.crmAAuthorizeBaseUrl,
      CRM_A_CLIENT_ID: apps.crm_a?.clientId,
      CRM_A_REDIRECT_URI: apps.crm_a?.redirectUri,
      CRM_A_CLIENT_SECRET_ARN: secrets.crmAClientSecret.secretArn,
      CRM_B_LOGIN_BASE_URL: apps.crmBLoginBaseUrl,
      CRM_B_CLIENT_ID: apps.crm_b?.clientId,
      CRM_B_REDIRECT_URI: apps.crm_b?.redirectUri,
      CRM_B_CLIENT_SECRET_ARN: secrets.crmBClientSecret.secretArn,
      CRM_STATE_SIGNING_SECRET_ARN: secrets.stateSigningSecret.secretArn,
    };
    for (const [name, value] of Object.entries(variables)) if (value !== undefined) this.function.addEnvironment(name, value);
    for (const secret of [secrets.stateSigningSecret, secrets.crmAClientSecret, secrets.crmBClientSecret]) secret.grantRead(this.function);
  }

  /** Points the vector port at Amazon S3 Vectors: `VECTOR_STORE=s3vectors`, the bucket and index names, and the adapter's actions on that index only. */
  bindVectorIndex(index: VectorIndexHandle): void {
    this.function.addEnvironment('VECTOR_STORE', 's3vectors');
    this.function.addEnvironment('S3_VECTORS_BUCKET', index.bucketName);
    this.function.addEnvironment('S3_VECTORS_INDEX', index.indexName);
    this.function.addToRolePolicy(vectorIndexStatement(index));
  }

  /** Points the exports port at S3: `EXPORTS_DRIVER=s3`, the bucket's name, and PutObject and GetObject under its `exports/` prefix only. */
  bindExportBucket(bucket: ExportBucketHandle): void {
    this.function.addEnvironment('EXPORTS_DRIVER', 's3');
    this.function.addEnvironment('EXPORTS_BUCKET', bucket.bucketName);
    this.function.addToRolePolicy(exportObjectsStatement(bucket));
    if (this.function.role !== undefined) {
      Validations.of(this.function.role).acknowledge({
        id: bucket.objectsFindingId,
        reason:
          'Export files are one object per merchant and job, created at run time: the grant covers the exports/ prefix of the export bucket, and only PutObject and GetObject.',
      });
    }
  }

  /** Points the AI port at Amazon Bedrock: `AI_PROVIDER=bedrock`, the model id, and InvokeModel on that one foundation model (Converse needs it). */
  bindBedrockModel(modelId: string): void {
    this.function.addEnvironment('AI_PROVIDER', 'bedrock');
    this.function.addEnvironment('BEDROCK_MODEL_ID', modelId);
    this.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: [Stack.of(this).formatArn({ service: 'bedrock', account: '', resource: 'foundation-model', resourceName: modelId })],
      }),
    );
  }

  /**
   * Points the custom-hostname ports at AWS: `CERTIFICATE_DRIVER=acm` (when the function calls ACM)
   * and, with a distribution configured, `CDN_DRIVER=cloudfront`; grants exactly the actions
   * `access` calls. ACM certificates and distribution tenants are created at run time, so their
   * ARNs are known only as patterns (RequestCertificate takes no resource at all).
   */
  bindCustomHostnames(config: CustomHostnamesConfig, access: CustomHostnameAccess): void {
    const stack = Stack.of(this);
    this.function.addEnvironment('SERVICE_DOMAIN', config.serviceDomain);
    this.function.addEnvironment('CUSTOM_HOST', config.customHost);
    const acm = ACM_ACTIONS[access];
    if (acm.length > 0) {
      this.function.addEnvironment('CERTIFICATE_DRIVER', 'acm');
      const certificates = stack.formatArn({ service: 'acm', region: 'us-east-1', resource: 'certificate', resourceName: '*' });
      this.function.addToRolePolicy(new PolicyStatement({ actions: ['acm:RequestCertificate'], resources: ['*'] }));
      this.function.addToRolePolicy(new PolicyStatement({ actions: acm.filter((action) => action !== 'acm:RequestCertificate'), resources: [certificates] }));
      this.acknowledgeRuntimeArns('AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:acm:us-east-1:<AWS::AccountId>:certificate/*]');
    }
    if (config.distributionId === undefined) return;
    this.function.addEnvironment('CDN_DRIVER', 'cloudfront');
    this.function.addEnvironment('CLOUDFRONT_DISTRIBUTION_ID', config.distributionId);
    const distribution = stack.formatArn({ service: 'cloudfront', region: '', resource: 'distribution', resourceName: config.distributionId });
    const tenants = stack.formatArn({ service: 'cloudfront', region: '', resource: 'distribution-tenant', resourceName: '*' });
    const actions = CLOUDFRONT_ACTIONS[access];
    const onDistribution = actions.filter((action) => action === 'cloudfront:CreateDistributionTenant' || action === 'cloudfront:CreateInvalidation');
    const onTenants = actions.filter((action) => action !== 'cloudfront:CreateInvalidation');
    if (onDistribution.length > 0) this.function.addToRolePolicy(new PolicyStatement({ actions: onDistribution, resources: [distribution] }));
    if (onTenants.length > 0) this.function.addToRolePolicy(new PolicyStatement({ actions: onTenants, resources: [tenants] }));
    this.acknowledgeRuntimeArns('AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cloudfront::<AWS::AccountId>:distribution-tenant/*]');
  }

  private acknowledgeRuntimeArns(id: string): void {
    Validations.of(this.function.role as Role).acknowledge({
      id,
      reason:
        'Custom hostnames: ACM certificates and CloudFront distribution tenants are created at run time, one per merchant hostname, so their ARNs can only be granted as account-scoped patterns, for exactly the actions the adapters call.',
    });
  }
}
