import { saveLocalDeadLetter } from '#adapters/dead-letters/local';
import { type QueueName, queueDefinitions } from '#contracts/queues';
import { type ScheduleName, scheduleDefinitions } from '#contracts/schedules';
import { LocalQueues, type SqsConsumer } from './queue-hub';
import { type LocalJobHandler, LocalScheduler } from './scheduler';
import { LocalTableStream, type StreamEventHandler } from './table-stream';

/** How often the local pollers look for visible messages (Lambda's SQS poller is long-polling). */
const QUEUE_POLL_INTERVAL_MS = 200;
/** How often the local stream poller reads the table's stream (Lambda's polls it about four times a second). */
const STREAM_POLL_INTERVAL_MS = 250;

export interface LocalRuntime {
  readonly queues: LocalQueues;
  readonly scheduler: LocalScheduler;
  /** The table-stream consumer fed from DynamoDB Local's stream; `stream.drain()` applies everything written so far. */
  readonly stream: LocalTableStream;
  /** Auto-embedding of recovered and terminal payments (functions/consumers/embed-recoveries.ts), its own poller as it is its own mapping on AWS. */
  readonly embeddings: LocalTableStream;
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
  const stream = new LocalTableStream({
    endpoint: process.env.DYNAMODB_ENDPOINT as string,
    tableName: process.env.TABLE_NAME as string,
    region: process.env.AWS_REGION ?? 'us-east-1',
    handler: streamHandler,
    // The event source mapping's filter on AWS: only records of items some projection counts.
    entities: projectedEntities,
  });
  const { handler: embedHandler, EMBED_SOURCE_ENTITIES } = await import('../../functions/consumers/embed-recoveries');
  const embeddings = new LocalTableStream({
    endpoint: process.env.DYNAMODB_ENDPOINT as string,
    tableName: process.env.TABLE_NAME as string,
    region: process.env.AWS_REGION ?? 'us-east-1',
    handler: embedHandler,
    entities: EMBED_SOURCE_ENTITIES,
  });
  if (options.background) {
    queues.start(QUEUE_POLL_INTERVAL_MS);
    scheduler.start();
    stream.start(STREAM_POLL_INTERVAL_MS);
    embeddings.start(STREAM_POLL_INTERVAL_MS);
  }
  return {
    queues,
    scheduler,
    stream,
    embeddings,
    stop: async () => {
      await scheduler.stop();
      await queues.stop();
      await stream.stop();
      await embeddings.stop();
    },
  };
}
