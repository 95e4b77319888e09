import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { projectedEntities } from '#data/projections/index';
import type { StageName } from '#lib/config/stages';
import type { DeadLetterQueue } from './dead-letter-queue';
import { GroupFunction } from './group-function';
import { entityFilters, streamDeadLetterQueue, tableStreamSource } from './table-stream-source';

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
    this.deadLetterQueue = streamDeadLetterQueue(
      this,
      props.alarmTopic,
      'Table-stream consumer (counters and analytics rollups): stream records given up on',
      "the table stream's",
    );
    this.fn = new GroupFunction(this, 'Consumer', {
      entry: 'functions/consumers/table-stream.ts',
      stage: props.stage,
      description: 'Consumer of the table stream: counters and analytics rollups',
      timeout: Duration.seconds(60),
    });
    this.fn.function.addEnvironment('TABLE_NAME', props.table.tableName);
    this.fn.function.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], resources: [props.table.tableArn] }));

    this.fn.function.addEventSource(tableStreamSource(props.table, TABLE_STREAM_SOURCE, this.deadLetterQueue, entityFilters(projectedEntities)));
  }
}
