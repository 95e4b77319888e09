import { ArnFormat, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { type QueueName, queueDefinitions } from '../../functions/consumers/queue-definitions';
import { keepsData, removalPolicyFor, type StageName } from '../config/stages';
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
  /** Signs list cursors, so that every function instance accepts the cursors of the others. */
  readonly cursorSecret: ISecret;

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

    const cursorSecret = new Secret(this, 'CursorSigningSecret', {
      description: 'Recovery service: HMAC key that signs list cursors',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: removalPolicyFor(props.stage),
    });
    Validations.of(cursorSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating the cursor key only invalidates outstanding list cursors (clients restart from the first page); it is rotated by hand when needed, with no rotation Lambda to maintain.',
    });
    this.cursorSecret = cursorSecret;
  }
}
