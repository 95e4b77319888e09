import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { DeadLetterQueue } from './dead-letter-queue';

/** A table-stream consumer's mapping settings (functions/contracts/stream-consumers.ts and TABLE_STREAM_SOURCE). */
export interface TableStreamSourceSettings {
  readonly batchSize: number;
  readonly maxBatchingWindowSeconds: number;
  readonly retryAttempts: number;
  readonly maxRecordAgeHours: number;
}

/** The dead-letter queue (id `Dlq`) of a table-stream consumer's event source mapping, alarming on the operator topic. */
export function streamDeadLetterQueue(scope: Construct, alarmTopic: ITopic, description: string, consumer: string): DeadLetterQueue {
  const dlq = new DeadLetterQueue(scope, 'Dlq', { alarmTopic, description });
  Validations.of(dlq.queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: `This queue is the on-failure destination of ${consumer} event source mapping: it is itself the dead-letter queue.`,
  });
  return dlq;
}

/**
 * A table-stream event source as every consumer of the stream has it: from TRIM_HORIZON, partial
 * batch failures, bisect on error, bounded retries and age, records given up on described in the
 * dead-letter queue; only the records the filters match.
 */
export const tableStreamSource = (
  table: ITable,
  settings: TableStreamSourceSettings,
  deadLetterQueue: DeadLetterQueue,
  filters: readonly Record<string, unknown>[],
): DynamoEventSource =>
  new DynamoEventSource(table, {
    startingPosition: StartingPosition.TRIM_HORIZON,
    batchSize: settings.batchSize,
    maxBatchingWindow: Duration.seconds(settings.maxBatchingWindowSeconds),
    reportBatchItemFailures: true,
    bisectBatchOnError: true,
    retryAttempts: settings.retryAttempts,
    maxRecordAge: Duration.hours(settings.maxRecordAgeHours),
    onFailure: new SqsDlq(deadLetterQueue.queue),
    filters: filters.map((pattern) => FilterCriteria.filter(pattern)),
  });

/** Filters on the records of items of the given entities: their INSERT and MODIFY (NewImage) and their REMOVE (OldImage). */
export const entityFilters = (entities: readonly string[]): Record<string, unknown>[] => [
  { dynamodb: { NewImage: { entity: { S: [...entities] } } } },
  { dynamodb: { OldImage: { entity: { S: [...entities] } } } },
];
