import { GetQueueAttributesCommand, ReceiveMessageCommand, type SQSClient, StartMessageMoveTaskCommand } from '@aws-sdk/client-sqs';
import type { QueueName } from '#contracts/queues';
import { type DeadLetterMessage, type DeadLetterQueues, parsedBody, type RedriveResult } from './port';

/** SQS lets one ReceiveMessage return at most 10 messages. */
const RECEIVE_BATCH = 10;
/** Receives in a row that bring no message not seen yet before the listing stops. */
const FRUITLESS_RECEIVES = 3;

const isoOf = (epochMs: string | undefined): string | null =>
  epochMs === undefined || !/^\d+$/.test(epochMs) ? null : new Date(Number(epochMs)).toISOString();

/**
 * The DLQs on AWS. `list` receives with VisibilityTimeout 0 and deletes nothing, so the messages
 * stay visible and in place (SQS samples its servers, so a receive may return messages seen
 * already: they are skipped, and the listing stops after a few receives that bring nothing new;
 * on a long DLQ it is a sample of `limit` messages, not the oldest). `redrive` starts SQS's own
 * move task (StartMessageMoveTask), which moves every message back to the queue it came from.
 *
 * @param dlqUrlOf the URL of a queue's DLQ (the data stack's dead-letter queues).
 */
export function sqsDeadLetterQueues(client: SQSClient, dlqUrlOf: (queue: QueueName) => string): DeadLetterQueues {
  return {
    name: 'sqs',
    list: async (queue, limit): Promise<DeadLetterMessage[]> => {
      const seen = new Map<string, DeadLetterMessage>();
      let fruitless = 0;
      while (seen.size < limit && fruitless < FRUITLESS_RECEIVES) {
        const { Messages = [] } = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: dlqUrlOf(queue),
            // Always a full batch: a receive returns a sample that may repeat messages seen already.
            MaxNumberOfMessages: RECEIVE_BATCH,
            VisibilityTimeout: 0,
            WaitTimeSeconds: 0,
            MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
            MessageAttributeNames: ['All'],
          }),
        );
        const before = seen.size;
        for (const message of Messages) {
          if (message.MessageId === undefined || seen.has(message.MessageId) || seen.size >= limit) continue;
          const receiveCount = message.Attributes?.ApproximateReceiveCount;
          seen.set(message.MessageId, {
            queue,
            message_id: message.MessageId,
            body: parsedBody(message.Body ?? ''),
            receive_count: receiveCount === undefined ? null : Number(receiveCount),
            sent_at: isoOf(message.Attributes?.SentTimestamp),
            dead_lettered_at: null,
          });
        }
        fruitless = seen.size === before ? fruitless + 1 : 0;
      }
      return [...seen.values()].sort((a, b) => (a.sent_at ?? '').localeCompare(b.sent_at ?? ''));
    },
    redrive: async (queue): Promise<RedriveResult> => {
      const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrlOf(queue), AttributeNames: ['QueueArn'] }));
      const arn = Attributes?.QueueArn;
      if (arn === undefined) throw new Error(`SQS gave no QueueArn for the ${queue} DLQ`);
      // No DestinationArn: SQS moves each message back to the queue it was dead-lettered from.
      const { TaskHandle } = await client.send(new StartMessageMoveTaskCommand({ SourceArn: arn }));
      return {
        queue,
        adapter: 'sqs',
        moved: null,
        succeeded: null,
        dead_lettered_again: null,
        ...(TaskHandle === undefined ? {} : { task_handle: TaskHandle }),
      };
    },
  };
}
