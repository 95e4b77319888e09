import { Duration } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { AccessLogFormat, EndpointType, LambdaIntegration, LogGroupLogDestination, ResponseType, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { QueueName } from '#contracts/queues';
import { routes as routeTable } from '#api/routes';
import { type ApiName, type RouteDef, servesApi } from '#api/route-types';
import { apiGroup } from '#api/groups';
import { bedrockModel } from '#lib/config/ai-model';
import { customHostnamesFor } from '#lib/config/custom-hostnames';
import type { CrmApps } from '#lib/config/crm-apps';
import { apiThrottling, logRetentionFor, removalPolicyFor, type StageName } from '#lib/config/stages';
import { defaultEmailFrom } from '#lib/config/email';
import { bindEmailIdentities, EMAIL_IDENTITY_ACTIONS } from './email-identities';
import { type CrmSecrets, GroupFunction, type QueueHandle } from './group-function';
import type { VectorIndexHandle } from './vector-index';
import type { ExportBucketHandle } from './export-bucket';

export interface RestApiFromRoutesProps {
  /** @default - none; required */
  readonly apiName: ApiName;
  /** @default - none; required */
  readonly stage: StageName;
  /** @default - none; required */
  readonly table: ITable;
  /** Every queue by name; a group gets only those its registry entry sends to. @default - none; required */
  readonly queues: Readonly<Record<QueueName, QueueHandle>>;
  /** Signs list cursors; every group function may read it. @default - none; required */
  readonly cursorSecret: ISecret;
  /** The shared secret of the internal routes; only groups serving a `cron_secret` row may read it. @default - none: those rows refuse every call */
  readonly cronSecret?: ISecret;
  /** The secrets-at-rest key; only groups whose registry entry says `secrets` may use it. @default - none: those groups cannot seal secrets */
  readonly secretsKey?: IKey;
  /** The CRM apps and their secrets; only groups whose registry entry says `crmApps` get them. @default - none: those groups answer CRM calls as unavailable */
  readonly crm?: { readonly apps: CrmApps; readonly secrets: CrmSecrets };
  /** The sender address of every email; its domain is the SES sending domain of groups whose registry entry says `emailIdentities`. @default `no-reply@<stage>.recovery.example.com` */
  readonly emailFrom?: string;
  /** The vector index; only groups whose registry entry says `vectors` may use it. @default - none: those groups use the local store */
  readonly vectorIndex?: VectorIndexHandle;
  /** The export files' bucket; only groups whose registry entry says `exports` may use it. @default - none: those groups use the filesystem store */
  readonly exportBucket?: ExportBucketHandle;
  /** @default routes (functions/api/routes.ts) */
  readonly routes?: readonly RouteDef[];
}

/** Access log fields: enough to trace a request across API Gateway, Lambda and X-Ray. */
const accessLogFields = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  path: '$context.path',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integration.error',
  errorMessage: '$context.error.message',
  xrayTraceId: '$context.xrayTraceId',
};

/**
 * One REST API for one host, derived from the route table (style.md rule 2): one GroupFunction per
 * group serving the host, one Method per row. Integrations use one Lambda permission per function
 * (`scopePermissionToMethod: false`) instead of two per method, which keeps a 100-route API far
 * below CloudFormation's 500-resource limit (DESIGN §2).
 */
export class RestApiFromRoutes extends Construct {
  readonly api: RestApi;
  private readonly functions = new Map<string, GroupFunction>();

  constructor(scope: Construct, id: string, props: RestApiFromRoutesProps) {
    super(scope, id);
    const rows = (props.routes ?? routeTable).filter((row) => servesApi(row, props.apiName));
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: logRetentionFor(props.stage),
      removalPolicy: removalPolicyFor(props.stage),
    });
    this.api = new RestApi(this, 'Api', {
      restApiName: `recovery-${props.apiName}-${props.stage}`,
      description: `Recovery service, ${props.apiName} API (${props.stage})`,
      endpointTypes: [EndpointType.REGIONAL],
      // Execution logging needs the account-wide API Gateway role, which this app leaves alone.
      cloudWatchRole: false,
      deployOptions: {
        stageName: props.stage,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
        tracingEnabled: true,
        metricsEnabled: true,
        throttlingRateLimit: apiThrottling.rateLimit,
        throttlingBurstLimit: apiThrottling.burstLimit,
      },
    });

    addErrorEnvelopes(this.api);

    for (const [group, groupRows] of groupBy(rows)) {
      const fn = this.createGroupFunction(group, groupRows, props);
      // One function-wide permission (it covers the console's test-invoke too, so CDK ignores
      // `allowTestInvoke` here and would only warn about it once per method).
      const integration = new LambdaIntegration(fn.function, { scopePermissionToMethod: false });
      for (const row of groupRows) {
        this.api.root.resourceForPath(row.path).addMethod(row.method, integration);
      }
    }
  }

  /** The function serving a group on this API; throws for a group this API does not serve. */
  functionForGroup(group: string): GroupFunction {
    const fn = this.functions.get(group);
    if (fn === undefined) throw new Error(`Group "${group}" is not served by this API`);
    return fn;
  }

  /** Groups served by this API, in route-table order. */
  get groups(): readonly string[] {
    return [...this.functions.keys()];
  }

  private createGroupFunction(group: string, rows: readonly RouteDef[], props: RestApiFromRoutesProps): GroupFunction {
    const config = apiGroup(group);
    const fn = new GroupFunction(this, `Group-${group}`, {
      entry: `functions/api/${group}/handler.ts`,
      stage: props.stage,
      description: `${props.apiName} API, group ${group}`,
      ...(config.memoryMb === undefined ? {} : { memorySize: config.memoryMb }),
      ...(config.timeoutSeconds === undefined ? {} : { timeout: Duration.seconds(config.timeoutSeconds) }),
      sendsTo: (config.sendsTo ?? []).map((name) => props.queues[name]),
    });
    const readOnly = config.table === 'read';
    fn.bindTable(props.table, readOnly ? 'RO' : 'RW');
    // Every keyed request counts against its key's rate limit, a write even on a GET.
    if (readOnly && rows.some((row) => row.auth === 'api_key' || row.auth === 'optional_api_key')) fn.bindRateLimitWindows(props.table);
    fn.bindCursorSecret(props.cursorSecret);
    if (props.cronSecret !== undefined && rows.some((row) => row.auth === 'cron_secret')) fn.bindCronSecret(props.cronSecret);
    if (config.ai === true) fn.bindBedrockModel(bedrockModel.modelId);
    if (config.secrets === true && props.secretsKey !== undefined) fn.bindSecretsKey(props.secretsKey);
    if (config.crmApps === true && props.crm !== undefined) fn.bindCrmApps(props.crm.apps, props.crm.secrets);
    if (config.vectors === true && props.vectorIndex !== undefined) fn.bindVectorIndex(props.vectorIndex);
    if (config.exports === true && props.exportBucket !== undefined) fn.bindExportBucket(props.exportBucket);

    if (config.emailIdentities === true) bindEmailIdentities(fn, props.emailFrom ?? defaultEmailFrom(props.stage), EMAIL_IDENTITY_ACTIONS);
    if (config.customHostnames !== undefined) fn.bindCustomHostnames(customHostnamesFor(props.stage, this.node), config.customHostnames);
    this.functions.set(group, fn);
    return fn;
  }
}

/**
 * What API Gateway answers by itself (unknown path or method, throttling, a failed integration)
 * in the service's error envelope, as the local server does. Unknown paths are 404s, not its
 * default 403 "Missing Authentication Token".
 */
function addErrorEnvelopes(api: RestApi): void {
  const envelope = (code: string, message: string): string => `{"error":{"code":"${code}","message":"${message}","request_id":"$context.requestId"}}`;
  const json = (template: string) => ({ 'application/json': template });
  api.addGatewayResponse('UnknownRoute', {
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: '404',
    templates: json(envelope('resource_not_found', 'No route $context.httpMethod $context.path.')),
  });
  api.addGatewayResponse('Throttled', {
    type: ResponseType.THROTTLED,
    statusCode: '429',
    responseHeaders: { 'Retry-After': "'1'" },
    templates: json('{"error":{"code":"rate_limit_exceeded","message":"Too many requests.","request_id":"$context.requestId","retry_after":1}}'),
  });
  // messageString is already a quoted JSON string.
  api.addGatewayResponse('Default4xx', {
    type: ResponseType.DEFAULT_4XX,
    templates: json('{"error":{"code":"invalid_request","message":$context.error.messageString,"request_id":"$context.requestId"}}'),
  });
  api.addGatewayResponse('Default5xx', { type: ResponseType.DEFAULT_5XX, templates: json(envelope('internal_error', 'An unexpected error occurred.')) });
}

function groupBy(rows: readonly RouteDef[]): Map<string, RouteDef[]> {
  const groups = new Map<string, RouteDef[]>();
  for (const row of rows) {
    const list = groups.get(row.group) ?? [];
    list.push(row);
    groups.set(row.group, list);
  }
  return groups;
}
