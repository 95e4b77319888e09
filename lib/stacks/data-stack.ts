import { ArnFormat, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { type QueueName, queueDefinitions } from '../../functions/consumers/queue-definitions';
import { keepsData, type StageName } from '../config/stages';
import { QueueWithDlq } from '../constructs/queue-with-dlq';
import { SingleTable } from '../constructs/single-table';

export interface DataStackProps extends StackProps {
  /** @default - none; required */
  readonly stage: StageName;
}

/**
 * The stateful stack (style.md rule 9): the table, the queues with their DLQs and the operator
 * alarm topic. Stateless stacks can be destroyed and rebuilt; this one is protected outside dev.
 */
export class DataStack extends Stack {
  readonly table: ITable;
  readonly queues: Readonly<Record<QueueName, QueueWithDlq>>;
  readonly alarmTopic: ITopic;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, { ...props, terminationProtection: props.terminationProtection ?? keepsData(props.stage) });
    this.table = new SingleTable(this, 'SingleTable', { stage: props.stage }).table;

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
          ArnLike: { 'aws:SourceArn': this.formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME }) },
        },
      }),
    );
    this.alarmTopic = topic;

    const queues = {} as Record<QueueName, QueueWithDlq>;
    for (const definition of queueDefinitions) {
      queues[definition.name] = new QueueWithDlq(this, `Queue-${definition.name}`, { definition, alarmTopic: topic });
    }
    this.queues = queues;
  }
}
