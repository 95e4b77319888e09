import { OUTBOUND_DISPATCH_SOURCE } from '#contracts/stream-consumers';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterRule } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { ENTITY } from '#data/keys';
import type { StageName } from '#lib/config/stages';
import type { DeadLetterQueue } from './dead-letter-queue';
import { GroupFunction, type QueueHandle } from './group-function';
import { streamDeadLetterQueue, tableStreamSource } from './table-stream-source';

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
    this.deadLetterQueue = streamDeadLetterQueue(
      this,
      props.alarmTopic,
      'Outbound-event dispatcher (webhook fan-out): stream records given up on',
      "the dispatcher's",
    );
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
      tableStreamSource(props.table, OUTBOUND_DISPATCH_SOURCE, this.deadLetterQueue, [
        { eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(ENTITY.outboundEvent) } } } },
      ]),
    );
  }
}
