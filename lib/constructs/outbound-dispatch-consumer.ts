import { OUTBOUND_DISPATCH_SOURCE } from '#contracts/stream-consumers';
import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { ENTITY } from '#data/keys';
import type { StageName } from '#lib/config/stages';
import { DeadLetterQueue } from './dead-letter-queue';
import { GroupFunction, type QueueHandle } from './group-function';

export interface OutboundDispatchConsumerProps {
  /** @default - none; required */
  readonly stage: StageName;
  /** The single table; its stream is the source. @default - none; required */
  readonly table: ITable;
  /** The outbound-deliveries queue, where each target's first attempt goes. @default - none; required */
  readonly deliveries: QueueHandle;
  /** Receives the alarm of the dispatcher's dead-letter queue. @default - none; required */
  readonly alarmTopic: ITopic;
}

export { OUTBOUND_DISPATCH_SOURCE } from '#contracts/stream-consumers';

/**
 * The outbound-event dispatcher (functions/consumers/outbound-dispatch.ts): a second Lambda on the
 * table's stream, invoked only for INSERTs of outbound events (the outbox) through its own filter
 * criteria, so the projections consumer and this one each keep their own place and failures. It
 * starts at TRIM_HORIZON, reports partial batch failures, bisects a failing batch, and describes
 * the records it gives up on in a dead-letter queue that alarms.
 *
 * IAM: Query (the merchant's endpoints and automation subscriptions) and UpdateItem (the event's
 * dispatch claim) on the table, and SendMessage on outbound-deliveries; nothing else.
 */
export class OutboundDispatchConsumer extends Construct {
  readonly fn: GroupFunction;
  readonly deadLetterQueue: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: OutboundDispatchConsumerProps) {
    super(scope, id);
    this.deadLetterQueue = new DeadLetterQueue(this, 'Dlq', {
      alarmTopic: props.alarmTopic,
      description: 'Outbound-event dispatcher (webhook fan-out): stream records given up on',
    });
    Validations.of(this.deadLetterQueue.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is the on-failure destination of the dispatcher's event source mapping: it is itself the dead-letter queue.",
    });
    this.fn = new GroupFunction(this, 'Consumer', {
      entry: 'functions/consumers/outbound-dispatch.ts',
      stage: props.stage,
      description: 'Dispatcher of outbound events: one webhook.deliver message per endpoint and automation subscription',
      timeout: Duration.seconds(30),
      sendsTo: [props.deliveries],
    });
    this.fn.function.addEnvironment('TABLE_NAME', props.table.tableName);
    this.fn.function.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query', 'dynamodb:UpdateItem'], resources: [props.table.tableArn] }));

    this.fn.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: OUTBOUND_DISPATCH_SOURCE.batchSize,
        maxBatchingWindow: Duration.seconds(OUTBOUND_DISPATCH_SOURCE.maxBatchingWindowSeconds),
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: OUTBOUND_DISPATCH_SOURCE.retryAttempts,
        maxRecordAge: Duration.hours(OUTBOUND_DISPATCH_SOURCE.maxRecordAgeHours),
        onFailure: new SqsDlq(this.deadLetterQueue.queue),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(ENTITY.outboundEvent) } } },
          }),
        ],
      }),
    );
  }
}
