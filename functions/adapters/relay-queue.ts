import { type RelayMessage, shardOf } from '#core/relay-messages';
import { ServiceUnavailableError } from '#core/errors';
import { type FifoQueue, sqsFifoQueue } from './aws/sqs-json';

/**
 * The session proxy's relay queues on AWS (SQS FIFO, one message group per API Gateway
 * connection): `RELAY_QUEUE_URL`, read at call time and set by CDK. On the WebSocket API's Lambda
 * it lists every shard's queue, comma-separated, in shard order, and a connection's messages go
 * to the queue its id hashes to (`shardOf`); on a relay task it is that task's one queue. Unset,
 * sending is 503 `service_unavailable`.
 */
const queues = new Map<string, FifoQueue>();

function queueAt(url: string): FifoQueue {
  let queue = queues.get(url);
  if (queue === undefined) {
    queue = sqsFifoQueue(url, { region: process.env.AWS_REGION ?? 'us-east-1' });
    queues.set(url, queue);
  }
  return queue;
}

function configuredUrls(): string[] {
  const urls = (process.env.RELAY_QUEUE_URL ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  if (urls.length === 0) throw new ServiceUnavailableError('The session proxy relay is not configured: RELAY_QUEUE_URL unset.');
  return urls;
}

/** The relay task's own queue (exactly one URL). */
export function relayQueue(): FifoQueue {
  const urls = configuredUrls();
  if (urls.length > 1) throw new ServiceUnavailableError('A relay task reads one queue: RELAY_QUEUE_URL lists several.');
  return queueAt(urls[0] as string);
}

/** The queue of the shard that holds `connectionId`. */
export function relayQueueFor(connectionId: string): FifoQueue {
  const urls = configuredUrls();
  return queueAt(urls[shardOf(connectionId, urls.length)] as string);
}

/**
 * Puts a message on its connection's group, in its shard's queue. `deduplicationKey` names the
 * event it reports (API Gateway's request id): a retried send of it is dropped by SQS within 5
 * minutes.
 */
export async function sendToRelay(message: RelayMessage, deduplicationKey: string): Promise<void> {
  await relayQueueFor(message.connection_id).send(JSON.stringify(message), message.connection_id, `${message.type}:${deduplicationKey}`);
}
