import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from '#shared/zod';
import { logger } from '#shared/logger';
import { type QueueName, queueDefinitions } from '#contracts/queues';

/**
 * Every queued message is JSON with a `kind` that names its processor.
 *
 * @example
 * await queueSender.send('notifications', { kind: 'dunning.email', payment_id: 'pay_1' });
 */
export interface QueueMessage {
  readonly kind: string;
  readonly [field: string]: unknown;
}

/** Handles one message; throws to have it redelivered (and, after `maxReceiveCount`, dead-lettered). */
export type MessageProcessor = (message: QueueMessage, record: SQSRecord) => Promise<void> | void;

export type QueueConsumer = (event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>;

/**
 * Called when a record fails on its last receive (`ApproximateReceiveCount` ≥ the queue's
 * `maxReceiveCount`), so that SQS (or the local queues) moves it to the DLQ next: the one moment
 * the service itself sees a message being dead-lettered. `message` is undefined when the body was
 * not a message at all. Its own failure is logged, never thrown: the record fails either way.
 */
export type LastFailureRecorder = (message: QueueMessage | undefined, record: SQSRecord, error: unknown) => Promise<void>;

export interface QueueConsumerOptions {
  readonly onLastFailure?: LastFailureRecorder;
}

const QueueMessageSchema = z.looseObject({ kind: z.string().check(z.minLength(1)) });
const SqsEventSchema = z.looseObject({
  Records: z.array(z.looseObject({ messageId: z.string().check(z.minLength(1)), body: z.string() })),
});

/** Why a record could not be handed to a processor; such records still end in the DLQ. */
class UnprocessableMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnprocessableMessageError';
  }
}

function parseMessage(record: SQSRecord, processors: Readonly<Record<string, MessageProcessor>>): [QueueMessage, MessageProcessor] {
  let json: unknown;
  try {
    json = JSON.parse(record.body);
  } catch {
    throw new UnprocessableMessageError('body is not JSON');
  }
  const parsed = QueueMessageSchema.safeParse(json);
  if (!parsed.success) throw new UnprocessableMessageError('body is not an object with a string "kind"');
  const processor = Object.hasOwn(processors, parsed.data.kind) ? processors[parsed.data.kind] : undefined;
  if (processor === undefined) throw new UnprocessableMessageError(`no processor for kind "${parsed.data.kind}"`);
  return [parsed.data as QueueMessage, processor];
}

/**
 * The Lambda handler of one queue (with ReportBatchItemFailures on its event source mapping).
 * Records run independently and concurrently; each failed record is named in
 * `batchItemFailures`, never dropped, so a message no processor can take ends in the DLQ where
 * someone can see it. No Middy here: there is no response to map, and the partial batch
 * response is the error handling.
 */
export function createQueueConsumer(
  queue: QueueName,
  processors: Readonly<Record<string, MessageProcessor>>,
  options: QueueConsumerOptions = {},
): QueueConsumer {
  const definition = queueDefinitions.find((candidate) => candidate.name === queue);
  if (definition === undefined) throw new Error(`Unknown queue "${queue}"`);
  const log = logger.child({ queue });

  const processRecord = async (record: SQSRecord): Promise<SQSBatchItemFailure | undefined> => {
    const fields = { message_id: record.messageId, receive_count: Number(record.attributes?.ApproximateReceiveCount) };
    let kind: string | undefined;
    let parsed: QueueMessage | undefined;
    try {
      const [message, processor] = parseMessage(record, processors);
      parsed = message;
      kind = message.kind;
      await processor(message, record);
      log.debug('message processed', { ...fields, kind });
      return undefined;
    } catch (error) {
      log[error instanceof UnprocessableMessageError ? 'warn' : 'error']('message failed', { ...fields, kind, error });
      if (options.onLastFailure !== undefined && fields.receive_count >= definition.maxReceiveCount) {
        await options
          .onLastFailure(parsed, record, error)
          .catch((recordError: unknown) => log.error('could not record the dead-lettered message', { ...fields, kind, error: recordError }));
      }
      return { itemIdentifier: record.messageId };
    }
  };

  return async (event) => {
    // A malformed event (not from SQS) throws, failing the invocation rather than any record.
    SqsEventSchema.parse(event);
    const { Records } = event;
    const outcomes = await Promise.all(Records.map(processRecord));
    const batchItemFailures = outcomes.filter((failure): failure is SQSBatchItemFailure => failure !== undefined);
    log.info('batch processed', { records: Records.length, failed: batchItemFailures.length });
    return { batchItemFailures };
  };
}
