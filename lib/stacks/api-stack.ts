import { CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { ApiName } from '#api/route-types';
import type { QueueName } from '#contracts/queues';
import type { StageName } from '#lib/config/stages';
import type { CrmApps } from '#lib/config/crm-apps';
import type { CrmSecrets, QueueHandle } from '#lib/constructs/group-function';
import { RestApiFromRoutes } from '#lib/constructs/rest-api-from-routes';
import type { VectorIndexHandle } from '#lib/constructs/vector-index';
import type { ExportBucketHandle } from '#lib/constructs/export-bucket';

export interface ApiStackProps extends StackProps {
  /** @default - none; required */
  readonly apiName: ApiName;
  /** @default - none; required */
  readonly stage: StageName;
  /** @default - none; required */
  readonly table: ITable;
  /** @default - none; required */
  readonly queues: Readonly<Record<QueueName, QueueHandle>>;
  /** @default - none; required */
  readonly cursorSecret: ISecret;
  /** @default - none; required */
  readonly cronSecret: ISecret;
  /** @default - none; required */
  readonly secretsKey: IKey;
  /** @default - none; required */
  readonly crm: { readonly apps: CrmApps; readonly secrets: CrmSecrets };
  /** The S3 Vectors index, for the groups whose registry entry says `vectors`. @default - none: those groups use the local store */
  readonly vectorIndex?: VectorIndexHandle;
  /** The export files' bucket, for the groups whose registry entry says `exports`. @default - none: those groups use the filesystem store */
  readonly exportBucket?: ExportBucketHandle;

  /** The sender address of every email (its domain: the SES sending domain). @default `no-reply@<stage>.recovery.example.com` */
  readonly emailFrom?: string;
}

/** One host of DESIGN §1 as its own REST API and stack, to stay far from 500 resources a stack. */
export class ApiStack extends Stack {
  readonly restApi: RestApiFromRoutes;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    this.restApi = new RestApiFromRoutes(this, 'Routes', {
      apiName: props.apiName,
      stage: props.stage,
      table: props.table,
      queues: props.queues,
      cursorSecret: props.cursorSecret,
      cronSecret: props.cronSecret,
      secretsKey: props.secretsKey,
      crm: props.crm,
      ...(props.vectorIndex === undefined ? {} : { vectorIndex: props.vectorIndex }),
      ...(props.exportBucket === undefined ? {} : { exportBucket: props.exportBucket }),

      ...(props.emailFrom === undefined ? {} : { emailFrom: props.emailFrom }),
    });
    new CfnOutput(this, 'Url', { value: this.restApi.api.url, description: `Base URL of the ${props.apiName} API` });
    acknowledgeApiFindings(this.restApi);
  }
}

/** Findings about API Gateway features this service deliberately replaces with its own checks. */
function acknowledgeApiFindings(routes: RestApiFromRoutes): void {
  const inHandler =
    'Callers authenticate in the handler, per route-table row: SHA-256-hashed API keys with scopes, provider webhook signatures, widget HMACs, session tokens or the cron secret (DESIGN §1); no IAM or Cognito identity exists for them.';
  Validations.of(routes).acknowledge(
    {
      id: 'AwsSolutions-APIG2',
      reason: 'Requests are validated in the handlers with the zod schemas of the route table, which answer 400/422 in the API error envelope.',
    },
    { id: 'AwsSolutions-APIG4', reason: inHandler },
    { id: 'AwsSolutions-COG4', reason: inHandler },
    {
      id: 'AwsSolutions-APIG3',
      reason:
        'No WAF web ACL yet: the stage throttles, and the handlers authenticate every keyed call and rate-limit per key, per merchant and per IP (DESIGN §1).',
    },
    {
      id: 'AwsSolutions-APIG6',
      reason:
        'JSON access logs are on for every stage; execution logging needs the account-wide API Gateway CloudWatch role, which this app leaves to the account owner (cdk.json disables the CloudWatch role).',
    },
  );
}
