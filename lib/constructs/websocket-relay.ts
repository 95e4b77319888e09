import { type CfnElement, CfnOutput, Duration, Fn, IgnoreMode, Stack, Validations } from 'aws-cdk-lib';
import { ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FlowLogDestination, FlowLogTrafficType, IpAddresses, SecurityGroup, SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import {
  Cluster,
  ContainerImage,
  ContainerInsights,
  CpuArchitecture,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
} from 'aws-cdk-lib/aws-ecs';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { browserSessionKeys } from '#data/keys';
import { logRetentionFor, removalPolicyFor, SERVICE_VERSION, type StageName } from '#lib/config/stages';
import { DeadLetterQueue } from './dead-letter-queue';
import { PROJECT_ROOT } from './group-function';
import type { SessionProxySettings, WebSocketProxyApi } from './websocket-proxy-api';

/** The relay's image: the repository root as build context, only what the Dockerfile copies sent to Docker. */
const RELAY_DOCKERFILE = 'functions/relay/Dockerfile';
const RELAY_BUILD_CONTEXT = ['*', '!package.json', '!package-lock.json', '!tsconfig.json', '!functions', 'functions/**/*.test.ts'];

export interface WebSocketRelayProps {
  /** @default - none; required */
  readonly stage: StageName;
  /** The connection items `$connect` writes (read only). @default - none; required */
  readonly table: ITable;
  /** Opens the upstream token sealed on each connection's item (KMS Decrypt only). @default - none; required */
  readonly secretsKey: IKey;
  /** Receives the relay's alarms (dead letters, a queue not consumed). @default - none; required */
  readonly alarmTopic: ITopic;
  /** The WebSocket API whose connections the relay serves: its Lambda sends, its stage's management API is called. @default - none; required */
  readonly proxy: WebSocketProxyApi;
  /** @default - none: no upstream, so the services run no task (every `$connect` is refused 503 anyway) */
  readonly settings?: SessionProxySettings;
  /** Upstream sockets one relay task holds; an `open` beyond it closes the browser's connection. @default 1000 */
  readonly maxConnections?: number;
  /**
   * Shards: each a queue and a service of one task; the Lambda puts a connection on the shard its
   * id hashes to (core/relay-messages.ts `shardOf`). Changing the count moves some connections to
   * another shard: their browsers are closed at their next message and reconnect. @default 1
   */
  readonly shards?: number;
}

/** What one shard of the relay's resources share. */
interface RelayShared {
  readonly props: WebSocketRelayProps;
  readonly cluster: Cluster;
  readonly securityGroup: SecurityGroup;
  readonly logGroup: LogGroup;
  readonly image: ContainerImage;
}

/**
 * One shard of the relay: its SQS FIFO queue (high-throughput mode, a FIFO DLQ with its alarm, an
 * alarm when messages wait), and its ECS service of exactly one task, whose role may receive,
 * delete and change the visibility of this queue's messages only, read the connection items
 * (`WSCONN#…` only), decrypt with the secrets key, and post to and delete the stage's connections
 * (`execute-api:ManageConnections` on `POST` and `DELETE @connections/*` only).
 */
export class RelayShard extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: DeadLetterQueue;
  readonly taskDefinition: FargateTaskDefinition;
  readonly service: FargateService;

  constructor(scope: Construct, id: string, shared: RelayShared) {
    super(scope, id);
    const { props } = shared;
    const stack = Stack.of(this);
    this.deadLetterQueue = new DeadLetterQueue(this, 'Dlq', {
      fifo: true,
      // A frame is worth nothing once its connection is gone (2 h at most): a day is enough to inspect a poison message.
      retentionDays: 1,
      alarmTopic: props.alarmTopic,
      description: `Session proxy relay (${id}): messages three receives never finished`,
    });
    this.queue = new Queue(this, 'Queue', {
      fifo: true,
      contentBasedDeduplication: false,
      // High-throughput FIFO: order and deduplication per connection, not across the queue (300 messages/s otherwise).
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      visibilityTimeout: Duration.seconds(30),
      retentionPeriod: Duration.hours(2),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue.queue, maxReceiveCount: 3 },
    });
    const stuck = this.queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum' }).createAlarm(this, 'NotConsumed', {
      alarmDescription: `Session proxy relay (${id}): messages waiting over a minute (is its task running?)`,
      threshold: 60,
      evaluationPeriods: 3,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    stuck.addAlarmAction(new SnsAction(props.alarmTopic));

    this.taskDefinition = new FargateTaskDefinition(this, 'Task', {
      cpu: 256,
      memoryLimitMiB: 512,
      runtimePlatform: { cpuArchitecture: CpuArchitecture.ARM64, operatingSystemFamily: OperatingSystemFamily.LINUX },
    });
    const environment: Record<string, string> = {
      STAGE: props.stage,
      SERVICE_VERSION,
      AWS_REGION: stack.region,
      TABLE_NAME: props.table.tableName,
      RELAY_QUEUE_URL: this.queue.queueUrl,
      RELAY_MANAGEMENT_ENDPOINT: props.proxy.stage.callbackUrl,
      RELAY_MAX_CONNECTIONS: String(props.maxConnections ?? props.settings?.relayMaxConnections ?? 1000),
      SECRET_BOX_DRIVER: 'kms',
      SECRETS_KMS_KEY_ID: props.secretsKey.keyArn,
      ...(props.settings?.upstreamUrl === undefined ? {} : { WS_UPSTREAM_URL: props.settings.upstreamUrl }),
    };
    this.taskDefinition.addContainer('Relay', {
      image: shared.image,
      logging: LogDrivers.awsLogs({ streamPrefix: `relay-${id.toLowerCase()}`, logGroup: shared.logGroup }),
      environment,
      readonlyRootFilesystem: true,
      // SIGTERM, then this long to close every upstream and browser connection (functions/relay/relay.ts: 20 s, after a receive of up to 10 s).
      stopTimeout: Duration.seconds(45),
    });

    const role = this.taskDefinition.taskRole;
    this.queue.grant(role, 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility');
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${browserSessionKeys.connection('').PK}*`] } },
      }),
    );
    props.secretsKey.grant(role, 'kms:Decrypt');
    const api = stack.formatArn({ service: 'execute-api', resource: props.proxy.api.apiId });
    const stageName = props.proxy.stage.stageName;
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['execute-api:ManageConnections'],
        resources: [`${api}/${stageName}/POST/@connections/*`, `${api}/${stageName}/DELETE/@connections/*`],
      }),
    );

    this.service = new FargateService(this, 'Service', {
      cluster: shared.cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: props.settings?.upstreamUrl === undefined ? 0 : 1,
      assignPublicIp: true,
      vpcSubnets: { subnetType: SubnetType.PUBLIC },
      securityGroups: [shared.securityGroup],
      // One task per queue (see WebSocketRelay): the old task stops before the new one starts.
      minHealthyPercent: 0,
      maxHealthyPercent: 100,
      circuitBreaker: { rollback: true },
    });
    new CfnOutput(this, 'ServiceName', { value: this.service.serviceName, description: `ECS service of the session proxy relay (${id})` });

    const apiLogicalId = stack.getLogicalId(props.proxy.api.node.defaultChild as CfnElement);
    const connectionsReason =
      "A connection's id is known only at run time: the relay may post to and delete any connection of this API's stage, and nothing else (no GET, no other stage or API).";
    Validations.of(role).acknowledge(
      ...['POST', 'DELETE'].map((method) => ({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<${apiLogicalId}>/${stageName}/${method}/@connections/*]`,
        reason: connectionsReason,
      })),
    );
    const executionRole = this.taskDefinition.executionRole;
    if (executionRole !== undefined) {
      Validations.of(executionRole).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'ecr:GetAuthorizationToken, which ECS needs to pull the relay image from the asset repository, supports no resource-level permissions.',
      });
    }
    Validations.of(this.taskDefinition).acknowledge({
      id: 'AwsSolutions-ECS2',
      reason: 'The variables are names, URLs and limits only; the one secret (the upstream token) is read sealed from the table and opened with KMS.',
    });
  }
}

/**
 * The session proxy's relay on AWS (functions/relay/; docs/session-proxy.md, "On AWS"): one or
 * more shards (RelayShard: an SQS FIFO queue, one message group per API Gateway connection, and
 * one long-running ECS Fargate task holding the upstream sockets of the connections hashed to
 * it). The WebSocket API's Lambda may only send to the shards' queues; it gets their URLs in
 * `RELAY_QUEUE_URL`, comma-separated, in shard order.
 *
 * Networking: a VPC of two public subnets and no NAT gateway; each task gets a public IP and no
 * inbound rule (it only calls out: SQS, DynamoDB, KMS, API Gateway, the upstream, ECR, Logs).
 * A NAT gateway or five interface endpoints would cost more than the tasks themselves.
 *
 * One task per queue: a FIFO queue keeps a group's order but may hand its messages to any
 * consumer, so a second task on one queue would receive frames for connections the first holds.
 * Scale out with shards, not with a service's desired count; deployments stop a shard's old task
 * (which closes its browsers' connections: they reconnect) before starting the new one.
 */
export class WebSocketRelay extends Construct {
  readonly shards: readonly RelayShard[];

  constructor(scope: Construct, id: string, props: WebSocketRelayProps) {
    super(scope, id);
    const count = props.shards ?? props.settings?.relayShards ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 16) throw new Error('WebSocketRelay: shards must be a whole number from 1 to 16');
    const vpc = new Vpc(this, 'Vpc', {
      ipAddresses: IpAddresses.cidr('10.80.0.0/24'),
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'Public', subnetType: SubnetType.PUBLIC, cidrMask: 26 }],
      // No custom resource to strip the default security group: nothing uses it.
      restrictDefaultSecurityGroup: false,
      flowLogs: {
        Rejected: {
          destination: FlowLogDestination.toCloudWatchLogs(
            new LogGroup(this, 'FlowLogs', { retention: logRetentionFor(props.stage), removalPolicy: removalPolicyFor(props.stage) }),
          ),
          trafficType: FlowLogTrafficType.REJECT,
        },
      },
    });
    const cluster = new Cluster(this, 'Cluster', { vpc, containerInsightsV2: ContainerInsights.ENABLED });
    const shared: RelayShared = {
      props,
      cluster,
      securityGroup: new SecurityGroup(this, 'SecurityGroup', {
        vpc,
        description: 'Session proxy relay: outbound only (SQS, DynamoDB, KMS, API Gateway, the upstream)',
        allowAllOutbound: true,
      }),
      logGroup: new LogGroup(this, 'Logs', { retention: logRetentionFor(props.stage), removalPolicy: removalPolicyFor(props.stage) }),
      image: ContainerImage.fromAsset(PROJECT_ROOT, {
        file: RELAY_DOCKERFILE,
        platform: Platform.LINUX_ARM64,
        ignoreMode: IgnoreMode.DOCKER,
        exclude: RELAY_BUILD_CONTEXT,
      }),
    };
    this.shards = Array.from({ length: count }, (_, index) => new RelayShard(this, `Shard${index}`, shared));

    // The WebSocket API's Lambda: SendMessage only, on every shard's queue.
    const handler = props.proxy.handler.function;
    for (const shard of this.shards) shard.queue.grant(handler, 'sqs:SendMessage');
    handler.addEnvironment(
      'RELAY_QUEUE_URL',
      Fn.join(
        ',',
        this.shards.map((shard) => shard.queue.queueUrl),
      ),
    );
    new CfnOutput(this, 'ClusterName', { value: cluster.clusterName, description: 'ECS cluster of the session proxy relay' });
  }
}
