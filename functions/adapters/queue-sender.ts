import type { MessageAttributeValue, SQSClient } from '@aws-sdk/client-sqs';
import { type QueueDefinition, type QueueName, queueDefinitions } from '#contracts/queues';
import { InternalError } from '#core/errors';
import { env } from '#shared/env';

/**
 * The port domain code uses to enqueue work. `queueSender` is SQS on AWS and the in-process
 * queues of the local stack locally (`QUEUE_DRIVER`); callers never know which.
 *
 * @example
 * const { messageId } = await queueSender.send('notifications', { kind: 'dunning.email', payment_id });
 */
export interface SendOptions {
  /** 0 to 900 seconds, as SQS allows. */
  readonly delaySeconds?: number;
  /** String attributes, or Number attributes when given a number. */
  readonly messageAttributes?: Readonly<Record<string, string | number>>;
}

export interface QueueSender {
  send(queue: QueueName, body: object, options?: SendOptions): Promise<{ messageId: string }>;
}

/** What the local stack's queues offer this adapter (lib/local/queue-hub.ts implements it). */
export interface LocalQueueTransport {
  send(queue: QueueName, body: string, options?: SendOptions): string | Promise<string>;
}

// A global symbol rather than a module variable: the local stack registers from lib/, which must
// not import runtime modules (style rule 1), and the registration must be seen by every copy of
// this module in the process. lib/local/queue-hub.ts uses the same key.
const TRANSPORT_KEY = Symbol.for('recovery-service.local-queue-transport');
type TransportHolder = { [TRANSPORT_KEY]?: LocalQueueTransport };

export function registerLocalQueueTransport(transport: LocalQueueTransport | undefined): void {
  (globalThis as TransportHolder)[TRANSPORT_KEY] = transport;
}

export function localQueueTransport(): LocalQueueTransport | undefined {
  return (globalThis as TransportHolder)[TRANSPORT_KEY];
}

function definitionOf(queue: QueueName): QueueDefinition {
  const definition = queueDefinitions.find((candidate) => candidate.name === queue);
  if (definition === undefined) throw new InternalError(`Unknown queue "${queue}"`);
  return definition;
}

/**
 * The SQS SDK, loaded and its client made on the first send: several functions bundle this port
 * for a send they rarely make (manual dunning in the recoveries group), and the SDK is a large
 * share of their cold start.
 */
let sqs: Promise<{ client: SQSClient; SendMessageCommand: typeof import('@aws-sdk/client-sqs').SendMessageCommand }> | undefined;
function sqsSdk() {
  sqs ??= import('@aws-sdk/client-sqs').then((sdk) => ({ client: new sdk.SQSClient({ region: env.AWS_REGION }), SendMessageCommand: sdk.SendMessageCommand }));
  return sqs;
}

function toSqsAttributes(attributes: SendOptions['messageAttributes']): Record<string, MessageAttributeValue> | undefined {
  if (attributes === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [
      name,
      typeof value === 'number' ? { DataType: 'Number', StringValue: String(value) } : { DataType: 'String', StringValue: value },
    ]),
  );
}

export const sqsQueueSender: QueueSender = {
  async send(queue, body, options = {}) {
    const definition = definitionOf(queue);
    const queueUrl = env[definition.urlEnv];
    if (queueUrl === undefined || queueUrl === '') {
      throw new InternalError(`Queue "${queue}" has no URL: set ${definition.urlEnv} (QUEUE_DRIVER is sqs)`);
    }
    const { client, SendMessageCommand } = await sqsSdk();
    const output = await client.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify(body),
        DelaySeconds: options.delaySeconds,
        MessageAttributes: toSqsAttributes(options.messageAttributes),
      }),
    );
    if (output.MessageId === undefined) throw new InternalError(`SQS returned no MessageId for queue "${queue}"`);
    return { messageId: output.MessageId };
  },
};

export const localQueueSender: QueueSender = {
  async send(queue, body, options) {
    definitionOf(queue);
    const transport = localQueueTransport();
    if (transport === undefined) {
      throw new InternalError(`No local queues are registered in this process (QUEUE_DRIVER is local): start the local stack's LocalQueues first`);
    }
    return { messageId: await transport.send(queue, JSON.stringify(body), options) };
  },
};

export function selectQueueSender(driver: 'sqs' | 'local'): QueueSender {
  return driver === 'local' ? localQueueSender : sqsQueueSender;
}

export const queueSender: QueueSender = selectQueueSender(env.QUEUE_DRIVER);
