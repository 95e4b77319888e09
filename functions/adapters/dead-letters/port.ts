import type { QueueName } from '#contracts/queues';

/**
 * The dead-letter queues of the work queues, as the operator sees them (`npm run admin -- dlq …`):
 * list what failed for good without taking it off the DLQ, and redrive it to its queue. Two
 * adapters: `local.ts` (the local stack's in-process queues, whose DLQ is kept in the table) and
 * `sqs.ts` (AWS: ReceiveMessage without deleting, StartMessageMoveTask).
 */
export interface DeadLetterMessage {
  readonly queue: QueueName;
  readonly message_id: string;
  /** The message as JSON when it is JSON (the service's messages carry ids, never payloads), else its text. */
  readonly body: unknown;
  readonly receive_count: number | null;
  readonly sent_at: string | null;
  /** When it reached the DLQ (local: exactly; SQS: unknown, null). */
  readonly dead_lettered_at: string | null;
}

export interface RedriveResult {
  readonly queue: QueueName;
  readonly adapter: 'local' | 'sqs';
  /** Messages taken off the DLQ and handed to the queue again (SQS: null, the move task runs on its own). */
  readonly moved: number | null;
  /** Local: processed now; SQS: null. */
  readonly succeeded: number | null;
  /** Local: failed every receive again and are back in the DLQ; SQS: null. */
  readonly dead_lettered_again: number | null;
  /** SQS: the move task's handle (ListMessageMoveTasks shows its progress). */
  readonly task_handle?: string;
}

export interface DeadLetterQueues {
  readonly name: 'local' | 'sqs';
  /** Up to `limit` dead-lettered messages of the queue, oldest first, left where they are. */
  list(queue: QueueName, limit: number): Promise<DeadLetterMessage[]>;
  /** Hands every dead-lettered message of the queue back to it. */
  redrive(queue: QueueName): Promise<RedriveResult>;
}

export const parsedBody = (body: string): unknown => {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
};
