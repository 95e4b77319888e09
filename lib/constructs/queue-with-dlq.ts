import { Duration } from 'aws-cdk-lib';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueDefinition } from '#contracts/queues';
import { DeadLetterQueue } from './dead-letter-queue';
import type { QueueHandle } from './group-function';

export interface QueueWithDlqProps {
  /** @default - none; required */
  readonly definition: QueueDefinition;
  /** Receives the DLQ alarm. @default - none; required */
  readonly alarmTopic: ITopic;
}

/** One work queue of `queueDefinitions` with its dead-letter queue and DLQ alarm. */
export class QueueWithDlq extends Construct implements QueueHandle {
  readonly definition: QueueDefinition;
  readonly queue: IQueue;
  readonly deadLetterQueue: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: QueueWithDlqProps) {
    super(scope, id);
    const { definition } = props;
    this.definition = definition;
    this.deadLetterQueue = new DeadLetterQueue(this, 'Dlq', {
      retentionDays: definition.dlqRetentionDays,
      alarmTopic: props.alarmTopic,
      description: definition.description,
    });
    this.queue = new Queue(this, 'Queue', {
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue.queue, maxReceiveCount: definition.maxReceiveCount },
    });
  }
}
