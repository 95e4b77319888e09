import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { WebSocketProxyApi } from '#lib/constructs/websocket-proxy-api';
import { WebSocketRelay } from '#lib/constructs/websocket-relay';
import { actionsOfRole, logicalIdOf, policyStatementsOfRole, roleLogicalIdOf, synthService } from '#test/infra/synth-service';

/** The session proxy's relay on AWS: its FIFO queue, who may send and receive, the ECS service and its network (docs/session-proxy.md). */
describe('WebSocketRelay', () => {
  const standalone = (upstreamUrl?: string, shards?: number) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'Edge');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'PK', type: AttributeType.STRING } });
    const secretsKey = new Key(stack, 'Key');
    const settings = upstreamUrl === undefined ? {} : { settings: { upstreamUrl } };
    const proxy = new WebSocketProxyApi(stack, 'SessionProxyWebSocket', { stage: 'dev', table, secretsKey, ...settings });
    const relay = new WebSocketRelay(stack, 'SessionProxyRelay', {
      stage: 'dev',
      table,
      secretsKey,
      alarmTopic: new Topic(stack, 'Alarms'),
      proxy,
      ...settings,
      ...(shards === undefined ? {} : { shards }),
    });
    return { proxy, relay, template: Template.fromStack(stack) };
  };

  it('puts the relay in the edge stack: a high-throughput FIFO queue with a FIFO dead-letter queue, and one ECS service', () => {
    // Prepare
    const { service, template } = synthService();
    // Act
    const edge = template(service.apis.edge);
    // Assess
    edge.hasResourceProperties('AWS::SQS::Queue', {
      FifoQueue: true,
      ContentBasedDeduplication: false,
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
      RedrivePolicy: { maxReceiveCount: 3, deadLetterTargetArn: Match.anyValue() },
      SqsManagedSseEnabled: true,
    });
    expect(Object.values(edge.findResources('AWS::SQS::Queue')).filter((queue) => queue.Properties.FifoQueue === true)).toHaveLength(2);
    edge.resourceCountIs('AWS::ECS::Service', 1);
    edge.resourceCountIs('AWS::ECS::Cluster', 1);
    edge.hasResourceProperties('AWS::ECS::Cluster', { ClusterSettings: [{ Name: 'containerInsights', Value: 'enabled' }] });
  });

  it('grants the WebSocket API’s Lambda sqs:SendMessage on the queue and nothing else of it, and gives it the queue’s URL', () => {
    // Prepare
    const { proxy, relay, template } = standalone();
    // Act
    const actions = actionsOfRole(template, roleLogicalIdOf(proxy.handler));
    // Assess
    expect(actions.filter((action) => action.startsWith('sqs:'))).toEqual(['sqs:SendMessage']);
    expect(actions.some((action) => action.startsWith('execute-api:'))).toBe(false);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ RELAY_QUEUE_URL: { Ref: logicalIdOf(relay.shards[0]?.queue.node.defaultChild as CfnElement) } }) },
    });
  });

  it('grants the relay’s task only what it calls: receive/delete/visibility, GetItem on connection items, KMS Decrypt, POST and DELETE @connections', () => {
    // Prepare
    const { proxy, relay, template } = standalone();
    const taskRole = logicalIdOf(relay.shards[0]?.taskDefinition.taskRole.node.defaultChild as CfnElement);
    // Act
    const statements = policyStatementsOfRole(template, taskRole);
    const actions = actionsOfRole(template, taskRole);
    // Assess
    expect([...new Set(actions)].sort()).toEqual([
      'dynamodb:GetItem',
      'execute-api:ManageConnections',
      'kms:Decrypt',
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:ReceiveMessage',
    ]);
    expect(statements.find((statement) => statement.Action === 'dynamodb:GetItem')).toMatchObject({
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WSCONN#*'] } },
    });
    const manage = JSON.stringify(statements.find((statement) => statement.Action === 'execute-api:ManageConnections')?.Resource);
    expect(manage).toContain('/dev/POST/@connections/*');
    expect(manage).toContain('/dev/DELETE/@connections/*');
    expect(manage).toContain(logicalIdOf(proxy.api.node.defaultChild as CfnElement));
    expect(manage).not.toContain('/GET/');
  });

  it('runs the relay image on Fargate (ARM64, read-only root, public IP, no inbound rule, no NAT gateway), one task at a time', () => {
    // Prepare
    const { template } = standalone('https://db.example');
    // Assess
    template.resourceCountIs('AWS::EC2::NatGateway', 0);
    template.resourceCountIs('AWS::EC2::FlowLog', 1);
    template.hasResourceProperties('AWS::ECS::Service', {
      DesiredCount: 1,
      LaunchType: 'FARGATE',
      NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: 'ENABLED' }) },
      DeploymentConfiguration: Match.objectLike({ MinimumHealthyPercent: 0, MaximumPercent: 100, DeploymentCircuitBreaker: { Enable: true, Rollback: true } }),
    });
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
      ContainerDefinitions: [Match.objectLike({ ReadonlyRootFilesystem: true, StopTimeout: 45, Image: Match.anyValue() })],
    });
    const container = Object.values(template.findResources('AWS::ECS::TaskDefinition'))[0]?.Properties.ContainerDefinitions[0];
    const variables = Object.fromEntries((container.Environment as Array<{ Name: string; Value: unknown }>).map(({ Name, Value }) => [Name, Value]));
    expect(variables).toMatchObject({ WS_UPSTREAM_URL: 'https://db.example', SECRET_BOX_DRIVER: 'kms', RELAY_MAX_CONNECTIONS: '1000', STAGE: 'dev' });
    expect(Object.keys(variables)).toEqual(
      expect.arrayContaining(['RELAY_QUEUE_URL', 'RELAY_MANAGEMENT_ENDPOINT', 'TABLE_NAME', 'SECRETS_KMS_KEY_ID', 'AWS_REGION']),
    );
    const groups = Object.values(template.findResources('AWS::EC2::SecurityGroup'));
    expect(groups).toHaveLength(1);
    expect(groups[0]?.Properties.SecurityGroupIngress).toBeUndefined();
  });

  it('shards: one queue and one single-task service each, the Lambda sending to every queue, each task receiving from its own only', () => {
    // Prepare
    const { proxy, relay, template } = standalone('https://db.example', 2);
    const queueIds = relay.shards.map((shard) => logicalIdOf(shard.queue.node.defaultChild as CfnElement));
    // Act
    const lambdaSends = policyStatementsOfRole(template, roleLogicalIdOf(proxy.handler)).filter((statement) => statement.Action === 'sqs:SendMessage');
    const receives = relay.shards.map((shard) =>
      policyStatementsOfRole(template, logicalIdOf(shard.taskDefinition.taskRole.node.defaultChild as CfnElement)).find((statement) =>
        [statement.Action].flat().includes('sqs:ReceiveMessage'),
      ),
    );
    // Assess
    template.resourceCountIs('AWS::ECS::Service', 2);
    template.resourceCountIs('AWS::ECS::Cluster', 1);
    template.allResourcesProperties('AWS::ECS::Service', { DesiredCount: 1 });
    expect(JSON.stringify(lambdaSends)).toContain(queueIds[0]);
    expect(JSON.stringify(lambdaSends)).toContain(queueIds[1]);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ RELAY_QUEUE_URL: { 'Fn::Join': [',', [{ Ref: queueIds[0] }, { Ref: queueIds[1] }]] } }) },
    });
    expect(JSON.stringify(receives[0]?.Resource)).toContain(queueIds[0]);
    expect(JSON.stringify(receives[0]?.Resource)).not.toContain(queueIds[1]);
    expect(JSON.stringify(receives[1]?.Resource)).toContain(queueIds[1]);
    expect(() => standalone(undefined, 0)).toThrow(/shards/);
  });

  it('runs no task until an upstream is configured', () => {
    // Act
    const { template } = standalone();
    // Assess
    template.hasResourceProperties('AWS::ECS::Service', { DesiredCount: 0 });
  });

  it('alarms when relay messages dead-letter or wait over a minute', () => {
    // Prepare
    const { template } = standalone();
    // Assess
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'ApproximateAgeOfOldestMessage', Threshold: 60 });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1 });
  });
});
