import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { type LocalQueueTransport, registerLocalQueueTransport, type SendOptions } from '#adapters/queue-sender';
import { type QueueDefinition, type QueueName, queueDefinitions } from '#contracts/queues';
import { type Logger, logger as defaultLogger } from '#shared/logger';
import { createLambdaContext } from './lambda-context';

/**
 * The SQS queues of the local stack, in process, with the semantics the consumers rely on in AWS:
 * batches of up to `batchSize` as a real-shaped SQSEvent, partial batch responses
 * (ReportBatchItemFailures), a visibility timeout before a failed message comes back, and a move
 * to the DLQ once a message has been received `maxReceiveCount` times without success.
 *
 * @example
 * const queues = new LocalQueues({ consumers: { notifications: notificationsHandler } });
 * queues.start(250);            // the running stack
 * await queues.drain();         // tests, with an injected clock
 */
export type SqsConsumer = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface LocalQueuesOptions {
  /** @default queueDefinitions */
  readonly definitions?: readonly QueueDefinition[];
  readonly consumers?: Partial<Record<QueueName, SqsConsumer>>;
  /** Milliseconds since the epoch. @default Date.now */
  readonly now?: () => number;
  /** @default 'us-east-1' */
  readonly region?: string;
  /** Become the transport of `localQueueSender` in this process. @default true */
  readonly registerAsTransport?: boolean;
  readonly logger?: Logger;
  /**
   * Also hands each dead-lettered message here (the stack keeps them in the table, where the
   * operator CLI lists and redrives them: functions/adapters/dead-letters/local.ts). Awaited by the
   * delivery pass that dead-letters it; a failure is logged. @default none (memory only)
   */
  readonly onDeadLetter?: (queue: QueueName, letter: DeadLetter) => Promise<void>;
}

export interface DeliveryCounts {
  batches: number;
  delivered: number;
  succeeded: number;
  failed: number;
  deadLettered: number;
}

export interface DeadLetter {
  readonly messageId: string;
  readonly body: string;
  readonly receiveCount: number;
  readonly sentTimestamp: number;
  readonly messageAttributes: SQSMessageAttributes;
}

interface StoredMessage {
  readonly messageId: string;
  readonly body: string;
  readonly md5OfBody: string;
  readonly messageAttributes: SQSMessageAttributes;
  readonly md5OfMessageAttributes?: string;
  readonly sentAt: number;
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  processing: boolean;
}

interface QueueState {
  readonly definition: QueueDefinition;
  readonly messages: Map<string, StoredMessage>;
  readonly deadLetters: DeadLetter[];
  consumer?: SqsConsumer;
}

/** SQS's default MaximumMessageSize (256 KiB); the data stack sets no other. */
const MAX_MESSAGE_BYTES = 262_144;
const MAX_DELAY_SECONDS = 900;
const MAX_ATTRIBUTES = 10;
const SENDER_ID = 'AIDALOCALSTACKSENDER';
/** Characters SQS refuses in a body (InvalidMessageContents): controls other than tab/LF/CR, lone surrogates, U+FFFE/U+FFFF. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: SQS's own rule for message bodies names these control characters
const FORBIDDEN_CHARACTER = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const md5 = (data: Buffer | string): string => createHash('md5').update(data).digest('hex');

const lengthPrefixed = (value: string): Buffer => {
  const bytes = Buffer.from(value, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};

/** The MD5 SQS computes over message attributes (sorted by name; transport type 1 for String and Number). */
export function md5OfMessageAttributes(attributes: SQSMessageAttributes): string {
  const parts = Object.keys(attributes)
    .sort()
    .flatMap((name) => {
      const attribute = attributes[name];
      if (attribute === undefined) return [];
      return [lengthPrefixed(name), lengthPrefixed(attribute.dataType), Buffer.from([1]), lengthPrefixed(attribute.stringValue ?? '')];
    });
  return md5(Buffer.concat(parts));
}

function toRecordAttributes(attributes: SendOptions['messageAttributes'] = {}): SQSMessageAttributes {
  const entries = Object.entries(attributes);
  if (entries.length > MAX_ATTRIBUTES) throw new Error(`A message has at most ${MAX_ATTRIBUTES} attributes, not ${entries.length}`);
  return Object.fromEntries(
    entries.map(([name, value]) => {
      if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`Message attribute "${name}" is not a finite number`);
      if (value === '') throw new Error(`Message attribute "${name}" is empty`);
      const dataType = typeof value === 'number' ? 'Number' : 'String';
      return [name, { stringValue: String(value), stringListValues: [], binaryListValues: [], dataType }];
    }),
  );
}

export class LocalQueues implements LocalQueueTransport {
  private readonly queues = new Map<QueueName, QueueState>();
  private readonly now: () => number;
  private readonly region: string;
  private readonly logger: Logger;
  private readonly running = new Set<Promise<void>>();
  private readonly onDeadLetter: LocalQueuesOptions['onDeadLetter'];
  private timer: NodeJS.Timeout | undefined;

  constructor(options: LocalQueuesOptions = {}) {
    this.now = options.now ?? Date.now;
    this.region = options.region ?? 'us-east-1';
    this.logger = options.logger ?? defaultLogger;
    this.onDeadLetter = options.onDeadLetter;
    for (const definition of options.definitions ?? queueDefinitions) {
      this.queues.set(definition.name, { definition, messages: new Map(), deadLetters: [] });
    }
    for (const [queue, consumer] of Object.entries(options.consumers ?? {})) {
      if (consumer !== undefined) this.registerConsumer(queue as QueueName, consumer);
    }
    if (options.registerAsTransport ?? true) registerLocalQueueTransport(this);
  }

  registerConsumer(queue: QueueName, consumer: SqsConsumer): this {
    this.state(queue).consumer = consumer;
    return this;
  }

  send(queue: QueueName, body: string, options: SendOptions = {}): string {
    const state = this.state(queue);
    const delaySeconds = options.delaySeconds ?? 0;
    if (!Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > MAX_DELAY_SECONDS) {
      throw new Error(`DelaySeconds must be an integer from 0 to ${MAX_DELAY_SECONDS}, not ${delaySeconds}`);
    }
    if (body.length === 0) throw new Error('A message body must not be empty');
    if (FORBIDDEN_CHARACTER.test(body))
      throw new Error('A message body holds a character SQS refuses (a control character other than tab, LF, CR, or a lone surrogate)');
    const messageAttributes = toRecordAttributes(options.messageAttributes);
    const attributeBytes = Object.entries(messageAttributes).reduce(
      (sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(value.dataType) + Buffer.byteLength(value.stringValue ?? ''),
      0,
    );
    const size = Buffer.byteLength(body, 'utf8') + attributeBytes;
    if (size > MAX_MESSAGE_BYTES) throw new Error(`A message is at most ${MAX_MESSAGE_BYTES} bytes, not ${size}`);

    const sentAt = this.now();
    const messageId = randomUUID();
    state.messages.set(messageId, {
      messageId,
      body,
      md5OfBody: md5(body),
      messageAttributes,
      ...(Object.keys(messageAttributes).length > 0 ? { md5OfMessageAttributes: md5OfMessageAttributes(messageAttributes) } : {}),
      sentAt,
      visibleAt: sentAt + delaySeconds * 1000,
      receiveCount: 0,
      processing: false,
    });
    return messageId;
  }

  /** One pass: hands every message visible now to its queue's consumer, in batches. */
  async deliverDue(): Promise<DeliveryCounts> {
    const counts: DeliveryCounts = { batches: 0, delivered: 0, succeeded: 0, failed: 0, deadLettered: 0 };
    const runs: Promise<void>[] = [];
    // Selection and receipt are synchronous, so overlapping passes never hand out one message twice.
    for (const state of this.queues.values()) {
      const consumer = state.consumer;
      if (consumer === undefined) continue;
      const now = this.now();
      const receivable: StoredMessage[] = [];
      for (const message of state.messages.values()) {
        if (message.processing || message.visibleAt > now) continue;
        if (message.receiveCount >= state.definition.maxReceiveCount) {
          runs.push(this.track(this.deadLetter(state, message)));
          counts.deadLettered += 1;
        } else {
          receivable.push(message);
        }
      }
      for (let start = 0; start < receivable.length; start += state.definition.batchSize) {
        runs.push(this.track(this.invoke(state, consumer, receivable.slice(start, start + state.definition.batchSize), now, counts)));
      }
    }
    await Promise.all(runs);
    return counts;
  }

  /** Delivers until a pass finds nothing to deliver (a failed message waits for its visibility timeout). */
  async drain(maxPasses = 1000): Promise<DeliveryCounts> {
    const total: DeliveryCounts = { batches: 0, delivered: 0, succeeded: 0, failed: 0, deadLettered: 0 };
    for (let pass = 0; pass < maxPasses; pass += 1) {
      const counts = await this.deliverDue();
      for (const key of Object.keys(total) as (keyof DeliveryCounts)[]) total[key] += counts[key];
      if (counts.delivered === 0 && counts.deadLettered === 0) return total;
    }
    throw new Error(`The queues did not drain in ${maxPasses} passes (a consumer keeps sending?)`);
  }

  start(intervalMs = 250): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.deliverDue().catch((error: unknown) => this.logger.error('queue delivery pass failed', { error }));
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops polling; resolves once the batches already handed to consumers have finished. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.running]);
  }

  /** Messages waiting to be received: visible now, or delayed. */
  depth(queue: QueueName): number {
    return this.state(queue).messages.size - this.inFlight(queue);
  }

  /** Messages received and not yet deleted whose visibility timeout has not run out. */
  inFlight(queue: QueueName): number {
    const now = this.now();
    let count = 0;
    for (const message of this.state(queue).messages.values()) {
      if (message.processing || (message.receiveCount > 0 && message.visibleAt > now)) count += 1;
    }
    return count;
  }

  /**
   * The messages not yet received (visible now or delayed), with when each becomes visible: what
   * the console's "poll for messages" shows, without receiving them (tests read a retry's delayed
   * message here rather than sleep through its delay).
   */
  waiting(queue: QueueName): readonly { readonly messageId: string; readonly body: string; readonly visibleAt: number }[] {
    return [...this.state(queue).messages.values()]
      .filter((message) => message.receiveCount === 0 && !message.processing)
      .map((message) => ({ messageId: message.messageId, body: message.body, visibleAt: message.visibleAt }));
  }

  /** Whether the message is still on the queue (waiting, delayed or in flight). */
  has(queue: QueueName, messageId: string): boolean {
    return this.state(queue).messages.has(messageId);
  }

  deadLetters(queue: QueueName): readonly DeadLetter[] {
    return [...this.state(queue).deadLetters];
  }

  private state(queue: QueueName): QueueState {
    const state = this.queues.get(queue);
    if (state === undefined) throw new Error(`Unknown queue "${queue}" (known: ${[...this.queues.keys()].join(', ')})`);
    return state;
  }

  private track(run: Promise<void>): Promise<void> {
    this.running.add(run);
    return run.finally(() => this.running.delete(run));
  }

  /** Moves the message to the DLQ now (synchronously); the promise is the hand-over to `onDeadLetter`. */
  private deadLetter(state: QueueState, message: StoredMessage): Promise<void> {
    state.messages.delete(message.messageId);
    const { messageId, body, receiveCount, sentAt, messageAttributes } = message;
    const letter: DeadLetter = { messageId, body, receiveCount, sentTimestamp: sentAt, messageAttributes };
    state.deadLetters.push(letter);
    const queue = state.definition.name;
    this.logger.warn('message moved to the dead-letter queue', { queue, message_id: messageId, receive_count: receiveCount });
    if (this.onDeadLetter === undefined) return Promise.resolve();
    return this.onDeadLetter(queue, letter).catch((error: unknown) =>
      this.logger.error('could not keep the dead-lettered message', { queue, message_id: messageId, error }),
    );
  }

  private receive(state: QueueState, message: StoredMessage, now: number): SQSRecord {
    message.receiveCount += 1;
    message.firstReceivedAt ??= now;
    message.visibleAt = now + state.definition.visibilityTimeoutSeconds * 1000;
    message.processing = true;
    return {
      messageId: message.messageId,
      receiptHandle: randomBytes(48).toString('base64'),
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: SENDER_ID,
        ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
      },
      messageAttributes: message.messageAttributes,
      md5OfBody: message.md5OfBody,
      ...(message.md5OfMessageAttributes === undefined ? {} : { md5OfMessageAttributes: message.md5OfMessageAttributes }),
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:${this.region}:000000000000:${state.definition.name}`,
      awsRegion: this.region,
    };
  }

  private async invoke(state: QueueState, consumer: SqsConsumer, batch: StoredMessage[], now: number, counts: DeliveryCounts): Promise<void> {
    const queue = state.definition.name;
    const event: SQSEvent = { Records: batch.map((message) => this.receive(state, message, now)) };
    counts.batches += 1;
    counts.delivered += batch.length;
    let failed: ReadonlySet<string>;
    try {
      const context = createLambdaContext(`local-${queue}-consumer`, state.definition.visibilityTimeoutSeconds * 1000);
      failed = this.failuresOf(queue, await consumer(event, context), batch);
    } catch (error) {
      this.logger.error('queue consumer failed the whole batch', { queue, records: batch.length, error });
      failed = new Set(batch.map((message) => message.messageId));
    }
    for (const message of batch) {
      message.processing = false;
      if (failed.has(message.messageId)) {
        counts.failed += 1;
      } else {
        state.messages.delete(message.messageId);
        counts.succeeded += 1;
      }
    }
  }

  /** Lambda's reading of a partial batch response: anything malformed fails the whole batch. */
  private failuresOf(queue: QueueName, response: unknown, batch: StoredMessage[]): ReadonlySet<string> {
    const everything = new Set(batch.map((message) => message.messageId));
    if (response === undefined || response === null) return new Set();
    const invalid = (reason: string): ReadonlySet<string> => {
      this.logger.error('invalid partial batch response; the whole batch failed', { queue, reason });
      return everything;
    };
    if (typeof response !== 'object' || Array.isArray(response)) return invalid('response is not an object');
    const failures = (response as { batchItemFailures?: unknown }).batchItemFailures;
    if (failures === undefined || failures === null) return new Set();
    if (!Array.isArray(failures)) return invalid('batchItemFailures is not an array');
    const named = new Set<string>();
    for (const failure of failures as unknown[]) {
      const id = typeof failure === 'object' && failure !== null ? (failure as { itemIdentifier?: unknown }).itemIdentifier : undefined;
      if (typeof id !== 'string' || !everything.has(id)) return invalid('an itemIdentifier is missing, empty or not a messageId of the batch');
      named.add(id);
    }
    return named;
  }
}
