import { saveLocalDeadLetter } from '#adapters/dead-letters/local';
import { type QueueName, queueDefinitions } from '#contracts/queues';
import { type ScheduleName, scheduleDefinitions } from '#contracts/schedules';
import { LocalQueues, type SqsConsumer } from './queue-hub';
import { type LocalJobHandler, LocalScheduler } from './scheduler';

/** How often the local pollers look for visible messages (Lambda's SQS poller is long-polling). */
const QUEUE_POLL_INTERVAL_MS = 200;

export interface LocalRuntime {
  readonly queues: LocalQueues;
  readonly scheduler: LocalScheduler;
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
  if (options.background) {
    queues.start(QUEUE_POLL_INTERVAL_MS);
    scheduler.start();
  }
  return {
    queues,
    scheduler,
    stop: async () => {
      await scheduler.stop();
      await queues.stop();
    },
  };
}
