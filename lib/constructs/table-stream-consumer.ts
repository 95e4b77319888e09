import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { projectedEntities } from '#data/projections/index';
import type { StageName } from '#lib/config/stages';
import { DeadLetterQueue } from './dead-letter-queue';
import { GroupFunction } from './group-function';

export interface TableStreamConsumerProps {
  /** @default - none; required */
  readonly stage: StageName;
  /** The single table; its stream (NEW_AND_OLD_IMAGES) is the source. @default - none; required */
  readonly table: ITable;
  /** Receives the alarm of the consumer's dead-letter queue. @default - none; required */
  readonly alarmTopic: ITopic;
}

/** The event source mapping's settings (the infra test asserts them). */
export const TABLE_STREAM_SOURCE = {
  batchSize: 100,
  maxBatchingWindowSeconds: 2,
  /** Each retry starts from the reported record (partial batch failure), halving the batch each time (bisect). */
  retryAttempts: 10,
  /** As long as the stream keeps a record; the hourly recompute reports any drift a dropped record leaves. */
  maxRecordAgeHours: 24,
} as const;

/**
 * The table-stream consumer (functions/consumers/table-stream.ts): a Lambda on the table's stream
 * that keeps the counter and rollup items. The mapping starts at TRIM_HORIZON, batches up to 100
 * records over a couple of seconds, reports partial batch failures (Lambda retries from the first
 * failed record) and bisects a failing batch; records it gives up on (retries or age exhausted)
 * are described in a dead-letter queue, which alarms. Filter criteria invoke it only for records
 * whose old or new image is an entity some projection counts (projectedEntities): the consumer's
 * own counter, rollup and marker writes never invoke it.
 *
 * IAM: PutItem (applied markers) and UpdateItem (counters, rollups) on the table, nothing else:
 * no read, no delete, no index. `dynamodb:LeadingKeys` does not narrow this: counter items and
 * markers live in the merchant's own partition (`M#<m>`, beside its payments), and IAM conditions
 * cannot name a sort key.
 */
export class TableStreamConsumer extends Construct {
  readonly fn: GroupFunction;
  readonly deadLetterQueue: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: TableStreamConsumerProps) {
    super(scope, id);
    this.deadLetterQueue = new DeadLetterQueue(this, 'Dlq', {
      alarmTopic: props.alarmTopic,
      description: 'Table-stream consumer (counters and analytics rollups): stream records given up on',
    });
    Validations.of(this.deadLetterQueue.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is the on-failure destination of the table stream's event source mapping: it is itself the dead-letter queue.",
    });
    this.fn = new GroupFunction(this, 'Consumer', {
      entry: 'functions/consumers/table-stream.ts',
      stage: props.stage,
      description: 'Consumer of the table stream: counters and analytics rollups',
      timeout: Duration.seconds(60),
    });
    this.fn.function.addEnvironment('TABLE_NAME', props.table.tableName);
    this.fn.function.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], resources: [props.table.tableArn] }));

    const entities = FilterRule.or(...projectedEntities);
    this.fn.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: TABLE_STREAM_SOURCE.batchSize,
        maxBatchingWindow: Duration.seconds(TABLE_STREAM_SOURCE.maxBatchingWindowSeconds),
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: TABLE_STREAM_SOURCE.retryAttempts,
        maxRecordAge: Duration.hours(TABLE_STREAM_SOURCE.maxRecordAgeHours),
        onFailure: new SqsDlq(this.deadLetterQueue.queue),
        filters: [
          FilterCriteria.filter({ dynamodb: { NewImage: { entity: { S: entities } } } }),
          FilterCriteria.filter({ dynamodb: { OldImage: { entity: { S: entities } } } }),
        ],
      }),
    );
  }
}
