/**
 * A child process of the crash part (reliability/crash.ts): runs one of the three at-least-once
 * workers against the parent's DynamoDB Local, and, when CRASH_AFTER_WRITES=k is set, SIGKILLs
 * itself the moment its k-th DynamoDB write has been acknowledged: a real kill, at a point
 * reproducible by count, in the middle of the batch.
 *
 *   node --import tsx reliability/crash-worker.ts <retries|inbound|dispatch> <journal file>
 *
 * SQS keeps a sent message whatever happens to its sender, and redelivers one whose consumer died
 * before acknowledging it. The local queues live in process memory, so here they are journaled:
 * every send and every acknowledgement is appended to the journal (fsync'd) before the worker
 * goes on, and a restarted worker first sends again every message not acknowledged.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import type { SQSEvent } from 'aws-lambda';
import type { QueueName } from '#contracts/queues';

const WRITE_COMMANDS = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'TransactWriteCommand',
  'BatchWriteCommand',
]);

/** Counts acknowledged writes through every SDK client (the document client's included) and kills this process at the k-th. */
function armCrash(after: number): void {
  const base = Object.getPrototypeOf(DynamoDBClient.prototype) as { send: (...args: unknown[]) => Promise<unknown> };
  const send = base.send;
  let writes = 0;
  base.send = async function counted(this: unknown, ...args: unknown[]): Promise<unknown> {
    const result = await send.apply(this, args);
    if (WRITE_COMMANDS.has((args[0] as object).constructor.name)) {
      writes += 1;
      if (writes >= after) process.kill(process.pid, 'SIGKILL');
    }
    return result;
  };
}

interface JournalLine {
  readonly sent?: { readonly id: string; readonly queue: QueueName; readonly body: string };
  readonly acked?: string;
}

function journal(file: string): { append: (line: JournalLine) => void; pending: () => Array<{ queue: QueueName; body: string }> } {
  return {
    append: (line) => {
      const fd = openSync(file, 'a');
      try {
        appendFileSync(fd, `${JSON.stringify(line)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
    pending: () => {
      if (!existsSync(file)) return [];
      const lines = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as JournalLine);
      const acked = new Set(lines.flatMap((line) => (line.acked === undefined ? [] : [line.acked])));
      return lines.flatMap((line) => (line.sent === undefined || acked.has(line.sent.id) ? [] : [{ queue: line.sent.queue, body: line.sent.body }]));
    },
  };
}

async function main(): Promise<void> {
  const [mode, journalFile] = process.argv.slice(2);
  if (mode === undefined || journalFile === undefined) throw new Error('usage: crash-worker <retries|inbound|dispatch> <journal file>');
  const after = Number(process.env.CRASH_AFTER_WRITES ?? '0');
  if (after > 0) armCrash(after);
  const log = journal(journalFile);
  // Loaded after the environment is complete: the runtime's modules read it once.
  const { LocalQueues } = await import('#lib/local/queue-hub');
  const { handler: inbound } = await import('#consumers/inbound-webhooks');
  const { handler: deliveries } = await import('#consumers/outbound-deliveries');
  const consumed = (consumer: typeof inbound) => async (event: SQSEvent) => {
    const response = await consumer(event, {} as never);
    const failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    for (const record of event.Records) if (!failed.has(record.messageId)) log.append({ acked: record.messageId });
    return response;
  };
  const queues = new LocalQueues({
    consumers: {
      ...(mode === 'inbound' ? { 'inbound-webhooks': consumed(inbound) } : {}),
      ...(mode === 'dispatch' ? { 'outbound-deliveries': consumed(deliveries) } : {}),
    },
  });
  const send = queues.send.bind(queues);
  queues.send = (queue, body, options) => {
    const id = send(queue, body, options);
    log.append({ sent: { id, queue, body } });
    return id;
  };
  for (const message of log.pending()) queues.send(message.queue, message.body);

  if (mode === 'retries') {
    const { executeDueRetries } = await import('#jobs/execute-due-retries');
    await executeDueRetries({ now: new Date(Number(process.env.CRASH_RUN_AT)), executionId: `crash-${process.pid}` });
  } else if (mode === 'inbound') {
    await queues.drain();
  } else if (mode === 'dispatch') {
    const { LocalTableStream } = await import('#lib/local/table-stream');
    const { handler: dispatch } = await import('#consumers/outbound-dispatch');
    const { ENTITY } = await import('#data/keys');
    const { OUTBOUND_DISPATCH_SOURCE } = await import('#contracts/stream-consumers');
    // A new process has no checkpoint: it reads the stream from its start, as Lambda retries a batch that never returned.
    const stream = new LocalTableStream({
      endpoint: process.env.DYNAMODB_ENDPOINT as string,
      tableName: process.env.TABLE_NAME as string,
      handler: dispatch,
      entities: [ENTITY.outboundEvent],
      eventNames: ['INSERT'],
      batchSize: OUTBOUND_DISPATCH_SOURCE.batchSize,
    });
    await stream.drain();
    await queues.drain();
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`crash worker failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
