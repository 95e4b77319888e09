import { Match } from 'aws-cdk-lib/assertions';
import { queueDefinitions } from '#contracts/queues';
import { tableDefinition } from '#data/table-definition';
import { logicalIdOf, synthService } from '#test/infra/synth-service';
import type { CfnElement } from 'aws-cdk-lib';

describe('DataStack', () => {
  it('creates the single table from the table definition when synthesised', () => {
    // Prepare
    const { service, template } = synthService('dev');

    // Act
    const t = template(service.data);

    // Assess
    t.resourceCountIs('AWS::DynamoDB::Table', 1);
    t.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey.name, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey.name, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
          { AttributeName: index.sortKey.name, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
  });

  it("outputs each dead-letter queue's URL, for the operator CLI's dlq list and redrive", () => {
    // Prepare
    const { service, template } = synthService('dev');

    // Act
    const outputs = template(service.data).findOutputs('*');

    // Assess
    for (const definition of queueDefinitions) {
      const dlq = service.data.queues[definition.name].deadLetterQueue.queue.node.defaultChild as CfnElement;
      const output = Object.entries(outputs).find(([id]) => id.startsWith(`DlqUrl${definition.name.replace(/-/g, '')}`));
      expect(output?.[1]).toMatchObject({ Value: { Ref: service.data.getLogicalId(dlq) }, Description: expect.stringContaining('dlq list --dlq-url') });
    }
  });

  it.each(['staging', 'prod'] as const)('retains and protects the table and the stack when the stage is %s', (stage) => {
    // Prepare
    const { service, template } = synthService(stage);

    // Act
    const t = template(service.data);

    // Assess
    t.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
    expect(service.data.terminationProtection).toBe(true);
  });

  it('lets the table and the stack be deleted when the stage is dev', () => {
    // Prepare
    const { service, template } = synthService('dev');

    // Act
    const t = template(service.data);

    // Assess
    t.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
    expect(service.data.terminationProtection).toBe(false);
  });

  it('keeps the logical id of the table stable when synthesised', () => {
    // Prepare
    const { service } = synthService('dev');

    // Act
    const logicalId = logicalIdOf(service.data.table.node.defaultChild as CfnElement);

    // Assess
    expect(logicalId).toBe('SingleTable46C85431');
  });

  it.each(queueDefinitions)('gives the $name queue a DLQ after $maxReceiveCount receives, and an alarm on it, when synthesised', (definition) => {
    // Prepare
    const { service, template } = synthService('dev');
    const handle = service.data.queues[definition.name];
    const dlqId = logicalIdOf(handle.deadLetterQueue.queue.node.defaultChild as CfnElement);
    const topicId = logicalIdOf(service.data.alarmTopic.node.defaultChild as CfnElement);

    // Act
    const t = template(service.data);

    // Assess
    t.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: definition.visibilityTimeoutSeconds,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: definition.maxReceiveCount },
    });
    t.hasResourceProperties('AWS::SQS::Queue', {
      MessageRetentionPeriod: definition.dlqRetentionDays * 24 * 3600,
      SqsManagedSseEnabled: true,
    });
    t.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }],
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
      AlarmActions: [{ Ref: topicId }],
    });
  });

  it('refuses plain HTTP on every queue and on the alarm topic when synthesised', () => {
    // Prepare
    const { service, template } = synthService('dev');
    const denyInsecure = Match.objectLike({
      Effect: 'Deny',
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    });

    // Act
    const t = template(service.data);

    // Assess
    const queuePolicies = Object.values(t.findResources('AWS::SQS::QueuePolicy'));
    expect(queuePolicies).toHaveLength(queueDefinitions.length * 2);
    for (const policy of queuePolicies) {
      expect(policy.Properties.PolicyDocument.Statement).toEqual(expect.arrayContaining([expect.objectContaining({ Effect: 'Deny' })]));
    }
    t.hasResourceProperties('AWS::SQS::QueuePolicy', { PolicyDocument: { Statement: Match.arrayWith([denyInsecure]) } });
    t.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: 'sns:Publish' }),
        ]),
      },
    });
  });
});
