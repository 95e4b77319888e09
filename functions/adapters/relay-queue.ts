import type { RelayMessage } from '#core/relay-messages';
import { ServiceUnavailableError } from '#core/errors';
import { type FifoQueue, sqsFifoQueue } from './aws/sqs-json';

/**
 * The session proxy's relay queue on AWS (an SQS FIFO queue, `RELAY_QUEUE_URL`, read at call
 * time; set by CDK on the WebSocket API's Lambda and on the relay): one message group per API
 * Gateway connection. Unset, sending is 503 `service_unavailable`.
 */
let cached: { readonly url: string; readonly queue: FifoQueue } | undefined;

export function relayQueue(): FifoQueue {
  const url = process.env.RELAY_QUEUE_URL?.trim();
  if (url === undefined || url === '') throw new ServiceUnavailableError('The session proxy relay is not configured: RELAY_QUEUE_URL unset.');
  if (cached?.url !== url) cached = { url, queue: sqsFifoQueue(url, { region: process.env.AWS_REGION ?? 'us-east-1' }) };
  return cached.queue;
}

/**
 * Puts a message on its connection's group. `deduplicationKey` names the event it reports (API
 * Gateway's request id): a retried send of it is dropped by SQS within 5 minutes.
 */
export async function sendToRelay(message: RelayMessage, deduplicationKey: string): Promise<void> {
  await relayQueue().send(JSON.stringify(message), message.connection_id, `${message.type}:${deduplicationKey}`);
}
