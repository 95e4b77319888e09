import type { LocalRedeliver, RedriveOutcome } from '#adapters/dead-letters/local';
import { saveLocalDeadLetter } from '#adapters/dead-letters/local';
import { type QueueName, queueDefinitions } from '#contracts/queues';
import { LocalQueues, type SqsConsumer } from './queue-hub';

/**
 * The local redrive of `dlq redrive` (operator CLI): the stack's queues live in the `npm start`
 * process, so the CLI puts the dead-lettered messages on in-process queues of its own, with the
 * same consumer handlers on the same table, and delivers them at once: each gets the queue's
 * `maxReceiveCount` receives back to back (the visibility timeout between them is skipped), and a
 * message that fails them all is dead-lettered again, kept in the table like the stack keeps it.
 */
export function localRedeliver(consumers: Partial<Record<QueueName, SqsConsumer>>, options: { readonly region?: string } = {}): LocalRedeliver {
  return async (queue, messages) => {
    let skipped = 0;
    const queues = new LocalQueues({
      consumers,
      now: () => Date.now() + skipped,
      onDeadLetter: (name, letter) => saveLocalDeadLetter(name, letter),
      ...(options.region === undefined ? {} : { region: options.region }),
    });
    const ids = messages.map((message) => queues.send(queue, message.body, { messageAttributes: message.messageAttributes }));
    const longestTimeout = Math.max(...queueDefinitions.map((definition) => definition.visibilityTimeoutSeconds));
    const mostReceives = Math.max(...queueDefinitions.map((definition) => definition.maxReceiveCount));
    const names = queueDefinitions.map((definition) => definition.name);
    for (let pass = 0; pass <= mostReceives + 1; pass += 1) {
      await queues.drain();
      if (names.every((name) => queues.depth(name) + queues.inFlight(name) === 0)) break;
      skipped += (longestTimeout + 1) * 1000;
    }
    const deadLettered = new Set(queues.deadLetters(queue).map((letter) => letter.messageId));
    return ids.map((id): RedriveOutcome => (deadLettered.has(id) ? 'dead_lettered' : queues.has(queue, id) ? 'pending' : 'succeeded'));
  };
}
