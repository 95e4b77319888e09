import { EMBED_RECOVERIES_SOURCE } from '#contracts/stream-consumers';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { ENTITY } from '#data/keys';
import type { StageName } from '#lib/config/stages';
import type { DeadLetterQueue } from './dead-letter-queue';
import { GroupFunction } from './group-function';
import { entityFilters, streamDeadLetterQueue, tableStreamSource } from './table-stream-source';
import type { VectorIndexHandle } from './vector-index';

export interface EmbedRecoveriesConsumerProps {
  /** @default - none; required */
  readonly stage: StageName;
  /** The single table; its stream is the source. @default - none; required */
  readonly table: ITable;
  /** Where the vectors go. @default - none; required */
  readonly vectorIndex: VectorIndexHandle;
  /** Receives the alarm of the consumer's dead-letter queue. @default - none; required */
  readonly alarmTopic: ITopic;
}

export { EMBED_RECOVERIES_SOURCE } from '#contracts/stream-consumers';

/**
 * Auto-embedding (functions/consumers/embed-recoveries.ts): a third Lambda on the table's stream,
 * invoked only for records of payment items through its own filter
 * criteria, so that neither the counters' consumer nor the dispatcher waits on it. It starts at
 * TRIM_HORIZON, reports partial batch failures, bisects a failing batch, and describes the records
 * it gives up on in a dead-letter queue that alarms.
 *
 * IAM: the S3 Vectors actions on the one index; nothing else (the stream's images carry the
 * payment; the mapping's own stream read is CDK's).
 */
export class EmbedRecoveriesConsumer extends Construct {
  readonly fn: GroupFunction;
  readonly deadLetterQueue: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: EmbedRecoveriesConsumerProps) {
    super(scope, id);
    this.deadLetterQueue = streamDeadLetterQueue(
      this,
      props.alarmTopic,
      'Auto-embedding of recovered and terminal payments: stream records given up on',
      "the embedding consumer's",
    );
    this.fn = new GroupFunction(this, 'Consumer', {
      entry: 'functions/consumers/embed-recoveries.ts',
      stage: props.stage,
      description: 'Auto-embedding: recovered and terminal payments into the similar-recoveries vector index',
      timeout: Duration.seconds(30),
    });
    // Only the stream's images are read: no table grant, just its name for the settings.
    this.fn.function.addEnvironment('TABLE_NAME', props.table.tableName);
    this.fn.bindVectorIndex(props.vectorIndex);

    // A payment's INSERT and MODIFY, and its REMOVE on erasure: the consumer's EMBED_SOURCE_ENTITIES (the infra test holds the two together).

    this.fn.function.addEventSource(tableStreamSource(props.table, EMBED_RECOVERIES_SOURCE, this.deadLetterQueue, entityFilters([ENTITY.payment])));
  }
}
