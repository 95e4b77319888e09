import { ArnFormat, CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { type QueueName, queueDefinitions } from '#contracts/queues';
import { keepsData, removalPolicyFor, type StageName } from '#lib/config/stages';
import type { CrmSecrets } from '#lib/constructs/group-function';
import { QueueWithDlq } from '#lib/constructs/queue-with-dlq';
import { SingleTable } from '#lib/constructs/single-table';
import { VectorIndex } from '#lib/constructs/vector-index';
import { ExportBucket } from '#lib/constructs/export-bucket';

export interface DataStackProps extends StackProps {
  /** @default - none; required */
  readonly stage: StageName;
}

/**
 * The stateful stack (style.md rule 9): the table, the queues with their DLQs and the operator
 * alarm topic, the vector index. Stateless stacks can be destroyed and rebuilt; this one is protected outside dev.
 */
export class DataStack extends Stack {
  readonly table: ITable;
  readonly queues: Readonly<Record<QueueName, QueueWithDlq>>;
  readonly alarmTopic: ITopic;
  /** Signs list cursors, so that every function instance accepts the cursors of the others. */
  readonly cursorSecret: ISecret;
  /** The shared secret of the internal (`cron_secret`) routes; internal callers read the same secret. */
  readonly cronSecret: ISecret;
  /**
   * Encrypts secrets at rest (webhook signing secrets, CRM tokens) under an encryption context
   * naming their owner (functions/adapters/secret-box.ts); only the groups whose registry entry
   * says `secrets` may use it.
   */
  readonly secretsKey: IKey;
  /** Read by the crm function only (ARNs in CRM_*_ARN); never plain environment values. */
  readonly crmSecrets: CrmSecrets;
  /** Amazon S3 Vectors: the similar-recoveries index (issue 15), retained outside dev like the table. */
  readonly vectorIndex: VectorIndex;
  /** The data export files (issue 16): private, encrypted, TLS only, expiring after 7 days; retained outside dev. */
  readonly exportBucket: ExportBucket;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, { ...props, terminationProtection: props.terminationProtection ?? keepsData(props.stage) });
    this.table = new SingleTable(this, 'SingleTable', { stage: props.stage }).table;
    this.vectorIndex = new VectorIndex(this, 'Vectors', { stage: props.stage });
    this.exportBucket = new ExportBucket(this, 'Exports', { stage: props.stage });
    // The operator CLI writes exports there too (`EXPORTS_DRIVER=s3 EXPORTS_BUCKET=<this> npm run admin -- exports start …`).
    new CfnOutput(this, 'ExportBucketName', {
      value: this.exportBucket.bucketName,
      description: 'EXPORTS_BUCKET of the operator CLI (with EXPORTS_DRIVER=s3): npm run admin -- exports start --merchant <id>',
    });

    const topic = new Topic(this, 'OperatorAlarms', { displayName: 'Recovery service operator alarms', enforceSSL: true });
    // An explicit topic policy replaces the default one, so CloudWatch alarms of this account
    // need their own right to publish.
    topic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': this.account },
          ArnLike: {
            'aws:SourceArn': this.formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME }),
          },
        },
      }),
    );
    this.alarmTopic = topic;

    const queues = {} as Record<QueueName, QueueWithDlq>;
    for (const definition of queueDefinitions) {
      queues[definition.name] = new QueueWithDlq(this, `Queue-${definition.name}`, { definition, alarmTopic: topic });
      // The operator CLI reads and redrives a DLQ by its URL (`npm run admin -- dlq list --dlq-url …`).
      new CfnOutput(this, `DlqUrl-${definition.name}`, {
        value: queues[definition.name].deadLetterQueue.queue.queueUrl,
        description: `Dead-letter queue of ${definition.name}: npm run admin -- dlq list --dlq-url <this URL>`,
      });
    }
    this.queues = queues;

    /** A generated secret (64 characters) that is rotated by hand, for the reason given. */
    const generatedSecret = (id: string, description: string, whyNoRotation: string): Secret => {
      const secret = new Secret(this, id, {
        description,
        generateSecretString: { passwordLength: 64, excludePunctuation: true },
        removalPolicy: removalPolicyFor(props.stage),
      });
      Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: whyNoRotation });
      return secret;
    };
    this.cursorSecret = generatedSecret(
      'CursorSigningSecret',
      'Recovery service: HMAC key that signs list cursors',
      'Rotating the cursor key only invalidates outstanding list cursors (clients restart from the first page); it is rotated by hand when needed, with no rotation Lambda to maintain.',
    );
    const cronSecret = generatedSecret(
      'CronSecret',
      'Recovery service: shared secret of the internal routes (Authorization: Bearer)',
      'The internal callers (schedulers, offline scoring jobs) hold a copy of this secret; it is rotated by hand together with them, with no rotation Lambda to maintain.',
    );
    this.cronSecret = cronSecret;
    const clientSecret = (id: string, crm: string, variable: string): Secret => {
      // Generated only so that the secret exists with a value; the operator replaces it with the
      // client secret of the CRM app registered for this stage (docs/integrations.md).
      const secret = generatedSecret(
        id,
        `Recovery service: ${crm} OAuth app client secret (replace with put-secret-value)`,
        `The CRM issues the client secret; it is rotated in the CRM app's settings and copied here by hand, which no rotation Lambda can do.`,
      );
      new CfnOutput(this, `${id}Arn`, {
        value: secret.secretArn,
        description: `${variable} of the crm function: aws secretsmanager put-secret-value --secret-id <this ARN> --secret-string <${crm} client secret>`,
      });
      return secret;
    };
    const stateSigningSecret = generatedSecret(
      'CrmStateSigningSecret',
      'Recovery service: HMAC key of the CRM OAuth state (installation URLs)',
      'Rotating the state key only invalidates installations started in the last 10 minutes (the merchant starts again); it is rotated by hand, with no rotation Lambda to maintain.',
    );
    new CfnOutput(this, 'CrmStateSigningSecretArn', {
      value: stateSigningSecret.secretArn,
      description: 'CRM_STATE_SIGNING_SECRET_ARN: the operator CLI signs installation URLs with it (npm run admin -- crm authorize-url)',
    });
    this.crmSecrets = {
      stateSigningSecret,
      crmAClientSecret: clientSecret('CrmAClientSecret', 'CRM A', 'CRM_A_CLIENT_SECRET_ARN'),
      crmBClientSecret: clientSecret('CrmBClientSecret', 'CRM B', 'CRM_B_CLIENT_SECRET_ARN'),
    };
    this.secretsKey = new Key(this, 'SecretsKey', {
      description: 'Recovery service: secrets at rest (webhook signing secrets, CRM tokens)',
      enableKeyRotation: true,
      removalPolicy: removalPolicyFor(props.stage),
    });
  }
}
