import { saveLocalDeadLetter } from '#adapters/dead-letters/local';
import { type QueueName, queueDefinitions } from '#contracts/queues';
import { EMBED_RECOVERIES_SOURCE, OUTBOUND_DISPATCH_SOURCE } from '#contracts/stream-consumers';
import { type ScheduleName, scheduleDefinitions } from '#contracts/schedules';
import { LocalQueues, type SqsConsumer } from './queue-hub';
import { type LocalJobHandler, LocalScheduler } from './scheduler';
import { LocalTableStream, LocalTableStreams, type StreamEventHandler } from './table-stream';

/** How often the local pollers look for visible messages (Lambda's SQS poller is long-polling). */
const QUEUE_POLL_INTERVAL_MS = 200;
/** How often the local stream poller reads the table's stream (Lambda's polls it about four times a second). */
const STREAM_POLL_INTERVAL_MS = 250;

export interface LocalRuntime {
  readonly queues: LocalQueues;
  readonly scheduler: LocalScheduler;
  /**
   * The consumers of DynamoDB Local's stream, each its own event source mapping on AWS: the
   * projections (counters, rollups), the outbound-event dispatcher and the auto-embedding of
   * recovered and terminal payments; `stream.drain()` applies everything written so far to all.
   */
  readonly stream: LocalTableStreams;
  stop(): Promise<void>;
}

/**
 * The event sources of the local stack: in-process queues feeding the SQS consumer handlers, and
 * the scheduler invoking the job handlers, both the very modules Lambda runs. Loaded lazily so
 * the environment is set before any handler reads it.
 */
export async function startLocalRuntime(options: { readonly background: boolean }): Promise<LocalRuntime> {
  const consumers: Partial<Record<QueueName, SqsConsumer>> = {};
  for (const { name } of queueDefinitions) {
    consumers[name] = ((await import(`../../functions/consumers/${name}`)) as { handler: SqsConsumer }).handler;
  }
  const jobs: Partial<Record<ScheduleName, LocalJobHandler>> = {};
  for (const { name } of scheduleDefinitions) {
    jobs[name] = ((await import(`../../functions/jobs/${name}`)) as { handler: LocalJobHandler }).handler;
  }
  // Dead letters are kept in the table too, where the operator CLI (`dlq list`, `dlq redrive`) finds them.
  const queues = new LocalQueues({ consumers, onDeadLetter: (queue, letter) => saveLocalDeadLetter(queue, letter) });
  const scheduler = new LocalScheduler({ handlers: jobs });
  const { handler: streamHandler } = (await import('../../functions/consumers/table-stream')) as { handler: StreamEventHandler };
  const { projectedEntities } = await import('../../functions/data/projections/index');
  const source = {
    endpoint: process.env.DYNAMODB_ENDPOINT as string,
    tableName: process.env.TABLE_NAME as string,
    region: process.env.AWS_REGION ?? 'us-east-1',
  };
  const { handler: dispatchHandler } = (await import('../../functions/consumers/outbound-dispatch')) as { handler: StreamEventHandler };
  const { ENTITY } = await import('../../functions/data/keys');
  const { handler: embedHandler, EMBED_SOURCE_ENTITIES } = await import('../../functions/consumers/embed-recoveries');
  const stream = new LocalTableStreams([
    // The event source mapping's filter on AWS: only records of items some projection counts.
    new LocalTableStream({ ...source, handler: streamHandler, entities: projectedEntities }),
    // The dispatcher's mapping: inserts of outbound events (the outbox) only.
    new LocalTableStream({
      ...source,
      handler: dispatchHandler,
      entities: [ENTITY.outboundEvent],
      eventNames: ['INSERT'],
      batchSize: OUTBOUND_DISPATCH_SOURCE.batchSize,
    }),
    // Auto-embedding (functions/consumers/embed-recoveries.ts): payment records only.
    new LocalTableStream({ ...source, handler: embedHandler, entities: EMBED_SOURCE_ENTITIES, batchSize: EMBED_RECOVERIES_SOURCE.batchSize }),
  ]);
  if (options.background) {
    queues.start(QUEUE_POLL_INTERVAL_MS);
    scheduler.start();
    stream.start(STREAM_POLL_INTERVAL_MS);
  }
  return {
    queues,
    scheduler,
    stream,
    stop: async () => {
      await scheduler.stop();
      await queues.stop();
      await stream.stop();
    },
  };
}
