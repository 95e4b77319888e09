import { DeleteCommand, PutCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { QueueName } from '#contracts/queues';
import { markDeadLetteredEventsRedriven } from '#data/dead-letter-repository';
import { documentClient } from '#data/client';
import { deadLetterKeys, queries } from '#data/keys';
import { env } from '#shared/env';
import { type DeadLetterMessage, type DeadLetterQueues, parsedBody, type RedriveResult } from './port';

/**
 * The local stack's DLQs. Its queues live in the `npm start` process (lib/local/queue-hub.ts), so
 * the messages they dead-letter are written to the table (`LOCALDLQ#<queue>`), where the operator
 * CLI, another process, lists and redrives them. Local only: nothing on AWS writes these items.
 */
export const LOCAL_DEAD_LETTER_ENTITY = 'local_dead_letter';

/** A message as the local queues dead-letter it. */
export interface LocalDeadLetterInput {
  readonly messageId: string;
  readonly body: string;
  readonly receiveCount: number;
  /** Milliseconds since the epoch. */
  readonly sentTimestamp: number;
  /** SQS-shaped attributes (`{ dataType, stringValue }`). */
  readonly messageAttributes: Readonly<Record<string, { readonly dataType: string; readonly stringValue?: string }>>;
}

interface StoredLocalDeadLetter {
  readonly PK: string;
  readonly SK: string;
  readonly queue: QueueName;
  readonly message_id: string;
  readonly body: string;
  readonly message_attributes: LocalDeadLetterInput['messageAttributes'];
  readonly receive_count: number;
  readonly sent_at: string;
  readonly dead_lettered_at: string;
}

/** A message to put back on its queue, with its attributes as the queue sender takes them. */
export interface RedrivenMessage {
  readonly body: string;
  readonly messageAttributes: Record<string, string | number>;
}

/** What became of each redriven message, in order: processed, dead-lettered again, or still queued. */
export type RedriveOutcome = 'succeeded' | 'dead_lettered' | 'pending';

/** Puts messages back on a local queue and reports their fates (lib/local/dead-letter-redrive.ts). */
export type LocalRedeliver = (queue: QueueName, messages: readonly RedrivenMessage[]) => Promise<RedriveOutcome[]>;

export async function saveLocalDeadLetter(queue: QueueName, letter: LocalDeadLetterInput, at: Date = new Date()): Promise<void> {
  const deadLetteredAt = at.toISOString();
  const item: StoredLocalDeadLetter = {
    ...deadLetterKeys.localMessage(queue, deadLetteredAt, letter.messageId),
    queue,
    message_id: letter.messageId,
    body: letter.body,
    message_attributes: letter.messageAttributes,
    receive_count: letter.receiveCount,
    sent_at: new Date(letter.sentTimestamp).toISOString(),
    dead_lettered_at: deadLetteredAt,
  };
  await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: { ...item, entity: LOCAL_DEAD_LETTER_ENTITY } }));
}

async function stored(queue: QueueName, limit: number): Promise<StoredLocalDeadLetter[]> {
  const items: StoredLocalDeadLetter[] = [];
  const input = { TableName: env.TABLE_NAME, ConsistentRead: true, ...queries.partitionPrefix(deadLetterKeys.localQueuePrefix(queue)) };
  for await (const page of paginateQuery({ client: documentClient }, input)) {
    for (const item of page.Items ?? []) {
      items.push(item as StoredLocalDeadLetter);
      if (items.length >= limit) return items;
    }
  }
  return items;
}

const toMessage = (item: StoredLocalDeadLetter): DeadLetterMessage => ({
  queue: item.queue,
  message_id: item.message_id,
  body: parsedBody(item.body),
  receive_count: item.receive_count,
  sent_at: item.sent_at,
  dead_lettered_at: item.dead_lettered_at,
});

const attributesOf = (attributes: LocalDeadLetterInput['messageAttributes']): Record<string, string | number> =>
  Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [name, value.dataType === 'Number' ? Number(value.stringValue) : (value.stringValue ?? '')]),
  );

/**
 * The local DLQs. A redrive hands every stored message to `redeliver` (a queue in the caller's
 * process with the stack's consumers) and deletes it once its fate is known: processed, or
 * dead-lettered again (then stored anew by the queue that did it). A message still queued when
 * `redeliver` returns stays stored, so nothing is lost.
 */
export function localDeadLetterQueues(redeliver: LocalRedeliver): DeadLetterQueues {
  return {
    name: 'local',
    list: async (queue, limit) => (await stored(queue, limit)).map(toMessage),
    redrive: async (queue): Promise<RedriveResult> => {
      const items = await stored(queue, Number.MAX_SAFE_INTEGER);
      const outcomes =
        items.length === 0
          ? []
          : await redeliver(
              queue,
              items.map((item) => ({ body: item.body, messageAttributes: attributesOf(item.message_attributes) })),
            );
      let succeeded = 0;
      let deadLettered = 0;
      for (const [index, item] of items.entries()) {
        const outcome = outcomes[index] ?? 'pending';
        if (outcome === 'pending') continue;
        if (outcome === 'succeeded') succeeded += 1;
        else deadLettered += 1;
        if (queue === 'inbound-webhooks') await markDeadLetteredEventsRedriven(parsedBody(item.body), outcome);
        await documentClient.send(new DeleteCommand({ TableName: env.TABLE_NAME, Key: { PK: item.PK, SK: item.SK } }));
      }
      return { queue, adapter: 'local', moved: items.length, succeeded, dead_lettered_again: deadLettered };
    },
  };
}
