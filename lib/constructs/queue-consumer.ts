import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Validations } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { consumerTimeoutFor } from '#lib/config/function-sizes';
import type { StageName } from '#lib/config/stages';
import { GroupFunction, type QueueHandle } from './group-function';

export interface QueueConsumerProps {
  /** The queue to consume; its definition names the handler and the batch size. @default - none; required */
  readonly source: QueueHandle;
  /** @default - none; required */
  readonly stage: StageName;
  /** @default - none; required */
  readonly table: ITable;
  /** @default - none */
  readonly sendsTo?: readonly QueueHandle[];
  /** @default 512 */
  readonly memorySize?: number;
}

/**
 * The SQS consumer `functions/consumers/<queue>.ts`, reporting partial batch failures so that one
 * bad message is retried (and finally dead-lettered) alone instead of with its whole batch.
 */
export class QueueConsumer extends Construct {
  readonly fn: GroupFunction;

  constructor(scope: Construct, id: string, props: QueueConsumerProps) {
    super(scope, id);
    const { definition, queue } = props.source;
    this.fn = new GroupFunction(this, 'Consumer', {
      entry: `functions/consumers/${definition.name}.ts`,
      stage: props.stage,
      description: `Consumer of the ${definition.name} queue`,
      memorySize: props.memorySize,
      timeout: consumerTimeoutFor(definition.visibilityTimeoutSeconds),
      sendsTo: props.sendsTo,
    });
    this.fn.bindTable(props.table, 'RW');
    const source = new SqsEventSource(queue, { batchSize: definition.batchSize, reportBatchItemFailures: true });
    this.fn.function.addEventSource(source);
    Validations.of(this).acknowledge({
      id: 'Serverless-LambdaEventSourceMappingDestination',
      reason:
        'Lambda supports no on-failure destination for SQS event sources; the queue redrive policy moves a message that keeps failing to its DLQ, which alarms.',
    });
  }
}
