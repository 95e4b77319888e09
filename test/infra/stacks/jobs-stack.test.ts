import type { CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { queueDefinitions } from '#contracts/queues';
import { scheduledJobInputTemplate, scheduleDefinitions } from '#contracts/schedules';
import { projectedEntities } from '#data/projections/index';
import { OUTBOUND_DISPATCH_SOURCE } from '#lib/constructs/outbound-dispatch-consumer';
import { TABLE_STREAM_SOURCE } from '#lib/constructs/table-stream-consumer';
import {
  actionsOfRole,
  eventSourceMappingsOf,
  filterPatternsOf,
  logicalIdOf,
  policyStatementsOfRole,
  roleLogicalIdOf,
  streamMappingProperties,
  synthService,
} from '#test/infra/synth-service';

describe('JobsStack', () => {
  it('schedules exactly the three jobs with their expressions in UTC when synthesised', () => {
    // Prepare
    const { service, template } = synthService();

    // Act
    const schedules = Object.values(template(service.jobs).findResources('AWS::Scheduler::Schedule'));

    // Assess
    expect(schedules.map((schedule) => schedule.Properties.ScheduleExpression).sort()).toEqual(['cron(0 * * * ? *)', 'cron(0 8 * * ? *)', 'rate(1 minute)']);
    for (const schedule of schedules) expect(schedule.Properties.ScheduleExpressionTimezone).toBe('Etc/UTC');
  });

  it.each(scheduleDefinitions)('targets the $name job with its input, retries and DLQ when synthesised', (definition) => {
    // Prepare
    const { service, template } = synthService();
    const job = service.jobs.jobs.get(definition.name)!;

    // Act
    const t = template(service.jobs);

    // Assess
    t.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: definition.expression,
      Target: {
        Arn: { 'Fn::GetAtt': [logicalIdOf(job.fn), 'Arn'] },
        Input: scheduledJobInputTemplate(definition.name),
        RoleArn: { 'Fn::GetAtt': [logicalIdOf(job.node.findChild('SchedulerRole').node.defaultChild as CfnElement), 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: Match.anyValue(), MaximumEventAgeInSeconds: Match.anyValue() },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalIdOf(job.deadLetterQueue.queue.node.defaultChild as CfnElement), 'Arn'] } },
      },
    });
    t.hasResourceProperties('AWS::Lambda::Function', {
      Handler: 'index.handler',
      DeadLetterConfig: { TargetArn: { 'Fn::GetAtt': [logicalIdOf(job.deadLetterQueue.queue.node.defaultChild as CfnElement), 'Arn'] } },
      Description: Match.stringLikeRegexp(`job ${definition.name}`),
    });
  });

  it.each(scheduleDefinitions)('allows the $name scheduler role to invoke its job and dead-letter, nothing else, when synthesised', (definition) => {
    // Prepare
    const { service, template } = synthService();
    const job = service.jobs.jobs.get(definition.name)!;
    const roleId = logicalIdOf(job.node.findChild('SchedulerRole').node.defaultChild as CfnElement);

    // Act
    const t = template(service.jobs);

    // Assess
    const role = t.findResources('AWS::IAM::Role')[roleId]!.Properties;
    expect(role.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({ Principal: { Service: 'scheduler.amazonaws.com' }, Action: 'sts:AssumeRole' }),
    ]);
    expect(role.Policies.flatMap((policy: { PolicyDocument: { Statement: unknown[] } }) => policy.PolicyDocument.Statement)).toEqual([
      { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: { 'Fn::GetAtt': [logicalIdOf(job.fn), 'Arn'] } },
      {
        Effect: 'Allow',
        Action: 'sqs:SendMessage',
        Resource: { 'Fn::GetAtt': [logicalIdOf(job.deadLetterQueue.queue.node.defaultChild as CfnElement), 'Arn'] },
      },
    ]);
    expect(policyStatementsOfRole(t, roleId)).toEqual([]);
  });

  it.each(queueDefinitions)('consumes the $name queue in batches of $batchSize with partial failures when synthesised', (definition) => {
    // Prepare
    const { service, template } = synthService();
    const consumer = service.jobs.consumers.get(definition.name)!;

    // Act
    const t = template(service.jobs);

    // Assess
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalIdOf(consumer.fn) },
      BatchSize: definition.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: { 'Fn::ImportValue': Match.stringLikeRegexp(`Queue${definition.name.replace(/-/g, '')}Queue`) },
    });
  });

  it.each(queueDefinitions)('keeps the $name visibility timeout at least six times the consumer timeout when synthesised', (definition) => {
    // Prepare
    const { service, template } = synthService();
    const consumer = service.jobs.consumers.get(definition.name)!;

    // Act
    const fn = template(service.jobs).findResources('AWS::Lambda::Function')[logicalIdOf(consumer.fn)]!.Properties;

    // Assess
    expect(fn.Timeout).toBeGreaterThan(0);
    expect(definition.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * fn.Timeout);
  });

  it('consumes the table stream from its start, in batches, with partial failures, bisect, bounded retries and a DLQ when synthesised', () => {
    // Prepare
    const { service, template } = synthService();
    const consumer = service.jobs.tableStream;

    // Act
    const t = template(service.jobs);

    // Assess
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalIdOf(consumer.fn) },
      EventSourceArn: { 'Fn::ImportValue': Match.stringLikeRegexp('StreamArn') },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: TABLE_STREAM_SOURCE.maxBatchingWindowSeconds,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: TABLE_STREAM_SOURCE.retryAttempts,
      MaximumRecordAgeInSeconds: TABLE_STREAM_SOURCE.maxRecordAgeHours * 3600,
      DestinationConfig: {
        OnFailure: { Destination: { 'Fn::GetAtt': [logicalIdOf(consumer.deadLetterQueue.queue.node.defaultChild as CfnElement), 'Arn'] } },
      },
    });
    expect(TABLE_STREAM_SOURCE.retryAttempts).toBeGreaterThan(0);
    expect(TABLE_STREAM_SOURCE.maxBatchingWindowSeconds).toBeLessThanOrEqual(5);
  });

  it('invokes the table-stream consumer only for records of entities the projections count when synthesised', () => {
    // Prepare
    const { service, template } = synthService();
    const consumer = service.jobs.tableStream;

    // Act
    const mappings = eventSourceMappingsOf(template(service.jobs), consumer.fn);

    // Assess
    expect(mappings).toHaveLength(1);
    const patterns = filterPatternsOf(mappings[0]);
    expect(patterns).toEqual([
      { dynamodb: { NewImage: { entity: { S: [...projectedEntities] } } } },
      { dynamodb: { OldImage: { entity: { S: [...projectedEntities] } } } },
    ]);
    expect(projectedEntities).toEqual(expect.arrayContaining(['payment', 'customer']));
  });

  it('lets the table-stream consumer put and update table items only: no read, delete or index access, when synthesised', () => {
    // Prepare
    const { service, template } = synthService();
    const consumer = service.jobs.tableStream;
    const roleId = logicalIdOf(consumer.fn.function.role!.node.defaultChild as CfnElement);

    // Act
    const statements = policyStatementsOfRole(template(service.jobs), roleId);
    const dynamoActions = statements.flatMap((statement) => [statement.Action].flat() as string[]).filter((action) => action.startsWith('dynamodb:'));

    // Assess
    const streamReads = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'];
    expect(dynamoActions.filter((action) => !streamReads.includes(action)).sort()).toEqual(['dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(dynamoActions).not.toContain('dynamodb:DeleteItem');
    expect(dynamoActions).not.toContain('dynamodb:Query');
  });

  describe('outbound webhooks', () => {
    it('dispatches the outbox from the table stream: its own mapping on INSERTs of outbound events only, partial failures, bisect, bounded retries and a DLQ', () => {
      // Prepare
      const { service, template } = synthService();
      const dispatcher = service.jobs.outboundDispatch;

      // Act
      const t = template(service.jobs);
      const mappings = eventSourceMappingsOf(t, dispatcher.fn);

      // Assess
      expect(mappings).toHaveLength(1);
      expect(mappings[0]?.Properties).toMatchObject(streamMappingProperties(OUTBOUND_DISPATCH_SOURCE, dispatcher.deadLetterQueue));
      const patterns = filterPatternsOf(mappings[0]);
      expect(patterns).toEqual([{ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['outbound_event'] } } } }]);
    });

    it('lets the dispatcher query and update the table and send to outbound-deliveries, nothing more', () => {
      // Prepare
      const { service, template } = synthService();
      const dispatcher = service.jobs.outboundDispatch;

      // Act
      const t = template(service.jobs);
      const actions = actionsOfRole(t, roleLogicalIdOf(dispatcher.fn));
      const statements = policyStatementsOfRole(t, roleLogicalIdOf(dispatcher.fn));
      const fn = t.findResources('AWS::Lambda::Function')[logicalIdOf(dispatcher.fn)]?.Properties;

      // Assess
      const streamReads = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'];
      expect(actions.filter((action) => action.startsWith('dynamodb:') && !streamReads.includes(action)).sort()).toEqual([
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ]);
      const sends = statements.filter((statement) => [statement.Action].flat().includes('sqs:SendMessage'));
      expect(JSON.stringify(sends.map((statement) => statement.Resource))).toMatch(/Queueoutbounddeliveries/);
      expect(JSON.stringify(sends.map((statement) => statement.Resource))).not.toMatch(/Queuenotifications|Queueinboundwebhooks/);
      expect(fn?.Environment.Variables).toMatchObject({ TABLE_NAME: expect.anything(), OUTBOUND_DELIVERY_QUEUE_URL: expect.anything() });
      expect(fn?.Environment.Variables.WEBHOOK_ALLOW_LOOPBACK).toBeUndefined();
    });

    it('lets the outbound-deliveries consumer open signing secrets (KMS on the secrets key) and retry through its own queue, never with WEBHOOK_ALLOW_LOOPBACK', () => {
      // Prepare
      const { service, template } = synthService();
      const consumer = service.jobs.consumers.get('outbound-deliveries')!;

      // Act
      const t = template(service.jobs);
      const statements = policyStatementsOfRole(t, roleLogicalIdOf(consumer.fn));
      const variables = t.findResources('AWS::Lambda::Function')[logicalIdOf(consumer.fn)]?.Properties.Environment.Variables;

      // Assess
      const kms = statements.find((statement) => [statement.Action].flat().includes('kms:Decrypt'));
      expect(JSON.stringify(kms?.Resource)).toMatch(/SecretsKey/);
      expect(variables).toMatchObject({ SECRET_BOX_DRIVER: 'kms', SECRETS_KMS_KEY_ID: expect.anything(), OUTBOUND_DELIVERY_QUEUE_URL: expect.anything() });
      expect(variables.WEBHOOK_ALLOW_LOOPBACK).toBeUndefined();
      expect(queueDefinitions.find((definition) => definition.name === 'outbound-deliveries')?.consumerSendsTo).toEqual(['outbound-deliveries']);
      for (const fn of [...service.jobs.consumers.values()]
        .map((c) => c.fn)
        .concat(
          [...service.jobs.jobs.values()].map((j) => j.fn),
          [service.jobs.tableStream.fn],
        )) {
        expect(t.findResources('AWS::Lambda::Function')[logicalIdOf(fn)]?.Properties.Environment.Variables.WEBHOOK_ALLOW_LOOPBACK).toBeUndefined();
      }
    });

    it('lets the every-minute job enqueue webhook retries (dispatch-due-webhooks) on outbound-deliveries', () => {
      // Prepare
      const { service, template } = synthService();
      const job = service.jobs.jobs.get('every-minute')!;

      // Act
      const statements = policyStatementsOfRole(template(service.jobs), roleLogicalIdOf(job.fn));

      // Assess
      const sends = statements.filter((statement) => [statement.Action].flat().includes('sqs:SendMessage'));
      expect(JSON.stringify(sends.map((statement) => statement.Resource))).toMatch(/Queueoutbounddeliveries/);
      expect(scheduleDefinitions.find((definition) => definition.name === 'every-minute')?.tasks).toContain('dispatch-due-webhooks');
    });
  });
});
