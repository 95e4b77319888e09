import { Duration, Validations } from 'aws-cdk-lib';
import { type Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface DeadLetterQueueProps {
  /** @default 14 */
  readonly retentionDays?: number;
  /** Receives the alarm when a message lands here. @default - none; required */
  readonly alarmTopic: ITopic;
  /** What failed, for the operator reading the alarm. @default - none; required */
  readonly description: string;
  /** The DLQ of a FIFO queue must be FIFO itself. @default false */
  readonly fifo?: boolean;
}

/**
 * A dead-letter queue with an alarm on its first message: a message here is work that failed for
 * good, so an operator hears about it at once rather than when the retention period ends.
 */
export class DeadLetterQueue extends Construct {
  readonly queue: Queue;
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: DeadLetterQueueProps) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      retentionPeriod: Duration.days(props.retentionDays ?? 14),
      ...(props.fifo === true ? { fifo: true } : {}),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(this.queue).acknowledge({
      id: 'Serverless-SQSRedrivePolicy',
      reason: 'This queue is itself a dead-letter queue; a DLQ for it would only move the same failed messages again.',
    });
    this.alarm = this.queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }).createAlarm(this, 'Alarm', {
      alarmDescription: `${props.description}: messages in the dead-letter queue`,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarm.addAlarmAction(new SnsAction(props.alarmTopic));
  }
}
