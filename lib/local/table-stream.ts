import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamsRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { type Logger, logger as defaultLogger } from '#shared/logger';

/** A handler of stream events: the consumer Lambda runs (functions/consumers/table-stream.ts). */
export type StreamEventHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;

export interface LocalTableStreamOptions {
  /** DynamoDB Local's endpoint. */
  readonly endpoint: string;
  readonly tableName: string;
  readonly handler: StreamEventHandler;
  /** @default 'us-east-1' */
  readonly region?: string;
  /** Records per handler invocation, as the event source mapping's batch size. @default 100 */
  readonly batchSize?: number;
  /**
   * Only records whose new or old image has one of these `entity` values reach the handler, as
   * the event source mapping's filter criteria do on AWS (lib/constructs/table-stream-consumer.ts,
   * `projectedEntities`); the others are passed over. @default every record
   */
  readonly entities?: readonly string[];
  /** Only records of these event names (`INSERT`, `MODIFY`, `REMOVE`) reach the handler, as a filter on `eventName` does on AWS. @default every record */
  readonly eventNames?: readonly string[];
  readonly logger?: Logger;
}

type Image = Record<string, unknown>;

/**
 * DynamoDB Local's stream writes an empty map attribute as `{}` instead of `{ "M": {} }` (the
 * table itself stores and returns `{ "M": {} }`); the images are given back the form AWS's stream
 * delivers, at any depth, so the consumer reads the same event here as on AWS.
 */
function withEmptyMaps(image: Image | undefined): Image | undefined {
  if (image === undefined) return undefined;
  const fix = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const attribute = value as { M?: Image; L?: unknown[] };
    if (Object.keys(attribute).length === 0) return { M: {} };
    if (attribute.M !== undefined) return { M: Object.fromEntries(Object.entries(attribute.M).map(([name, inner]) => [name, fix(inner)])) };
    if (attribute.L !== undefined) return { L: attribute.L.map(fix) };
    return value;
  };
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, fix(value)]));
}

/** What a pass (or a drain) did. */
export interface StreamPassCounts {
  /** Records handed to the handler and applied. */
  records: number;
  /** Handler invocations. */
  batches: number;
  /** Invocations that reported (or threw) a failure; their shard resumes from the failed record next pass. */
  failed: number;
}

const READ_LIMIT = 1000;
/** Passes in a row that may fail before drain() gives up (the handler keeps failing on a record). */
const MAX_FAILED_PASSES = 5;

/**
 * The local twin of the stream's event source mapping: reads DynamoDB Local's stream of the table
 * (DescribeTable → LatestStreamArn, DescribeStream, shard iterators, GetRecords, child shards
 * after their parents) from its start (TRIM_HORIZON, as on AWS), hands the records to the
 * handler in batches of the Lambda event's shape, and keeps its place per shard. A reported
 * `batchItemFailures` entry (or a throw) stops that shard at the failed record; the next pass
 * starts again from it, as Lambda retries from the reported sequence number.
 *
 * The place is kept in memory: a restarted stack reads the stream from its start again, and the
 * consumer's applied markers make the records applied before count once.
 *
 * @example
 * const stream = new LocalTableStream({ endpoint, tableName, handler });
 * stream.start(500);        // the running stack
 * await stream.drain();     // tests and scripts: until the stream has nothing new
 */
export class LocalTableStream {
  private readonly streams: DynamoDBStreamsClient;
  private readonly dynamo: DynamoDBClient;
  private readonly tableName: string;
  private readonly handler: StreamEventHandler;
  private readonly region: string;
  private readonly batchSize: number;
  private readonly entities: ReadonlySet<string> | undefined;
  private readonly eventNames: ReadonlySet<string> | undefined;
  private readonly logger: Logger;
  /** Sequence number of the last record applied, per shard. */
  private readonly checkpoints = new Map<string, string>();
  /** Closed shards read to their end. */
  private readonly finished = new Set<string>();
  private streamArn: string | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(options: LocalTableStreamOptions) {
    this.region = options.region ?? 'us-east-1';
    const config = { endpoint: options.endpoint, region: this.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
    this.streams = new DynamoDBStreamsClient(config);
    this.dynamo = new DynamoDBClient(config);
    this.tableName = options.tableName;
    this.handler = options.handler;
    this.batchSize = options.batchSize ?? 100;
    this.entities = options.entities === undefined ? undefined : new Set(options.entities);
    this.eventNames = options.eventNames === undefined ? undefined : new Set(options.eventNames);
    this.logger = options.logger ?? defaultLogger;
  }

  /** One pass over every shard, up to what the stream holds now. Passes never overlap. */
  poll(): Promise<StreamPassCounts> {
    const pass = this.running.then(() => this.pass());
    this.running = pass.catch(() => undefined);
    return pass;
  }

  /**
   * Passes until one finds nothing new. The consumer's own writes are records too (which it
   * skips), so a drain after writes takes a pass for them and a last one that reads nothing.
   */
  async drain(maxPasses = 100): Promise<StreamPassCounts> {
    const total: StreamPassCounts = { records: 0, batches: 0, failed: 0 };
    let failedPasses = 0;
    for (let pass = 0; pass < maxPasses; pass += 1) {
      const counts = await this.poll();
      total.records += counts.records;
      total.batches += counts.batches;
      total.failed += counts.failed;
      if (counts.failed > 0) {
        failedPasses += 1;
        if (failedPasses >= MAX_FAILED_PASSES) throw new Error(`The table-stream consumer failed ${failedPasses} passes in a row (see its log)`);
        continue;
      }
      failedPasses = 0;
      if (counts.records === 0) return total;
    }
    throw new Error(`The table stream did not drain in ${maxPasses} passes`);
  }

  start(intervalMs = 500): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.poll().catch((error: unknown) => this.logger.error('table stream pass failed', { error }));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    this.streams.destroy();
    this.dynamo.destroy();
  }

  private async pass(): Promise<StreamPassCounts> {
    const counts: StreamPassCounts = { records: 0, batches: 0, failed: 0 };
    const arn = await this.latestStreamArn();
    const shards = await this.shards(arn);
    const listed = new Set(shards.map((shard) => shard.ShardId));
    for (const shard of shards) {
      const shardId = shard.ShardId as string;
      if (this.finished.has(shardId)) continue;
      // A child shard waits until its parent is read to the end (records of one item stay in order).
      if (shard.ParentShardId !== undefined && listed.has(shard.ParentShardId) && !this.finished.has(shard.ParentShardId)) continue;
      await this.readShard(arn, shardId, counts);
    }
    return counts;
  }

  private async readShard(arn: string, shardId: string, counts: StreamPassCounts): Promise<void> {
    const checkpoint = this.checkpoints.get(shardId);
    let iterator = (
      await this.streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: shardId,
          ...(checkpoint === undefined ? { ShardIteratorType: 'TRIM_HORIZON' } : { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: checkpoint }),
        }),
      )
    ).ShardIterator;
    while (iterator !== undefined) {
      const page = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: READ_LIMIT }));
      const records = page.Records ?? [];
      const matching = records.filter((record) => this.matches(record));
      for (let start = 0; start < matching.length; start += this.batchSize) {
        const batch = matching.slice(start, start + this.batchSize);
        const appliedUpTo = await this.invoke(arn, batch, counts);
        if (appliedUpTo !== undefined) this.checkpoints.set(shardId, appliedUpTo);
        if (appliedUpTo !== batch.at(-1)?.dynamodb?.SequenceNumber) return;
      }
      // Every matching record is applied: the place moves past the records the filter passed over too.
      const last = records.at(-1)?.dynamodb?.SequenceNumber;
      if (last !== undefined) this.checkpoints.set(shardId, last);
      if (page.NextShardIterator === undefined) {
        this.finished.add(shardId);
        return;
      }
      if (records.length === 0) return;
      iterator = page.NextShardIterator;
    }
  }

  /** Whether the filter lets the record through (its event name, and its new or old image's `entity`, are listed). */
  private matches(record: StreamsRecord): boolean {
    if (this.eventNames !== undefined && !this.eventNames.has(record.eventName ?? '')) return false;
    if (this.entities === undefined) return true;
    const entityOf = (image: Image | undefined): unknown => (image?.entity as { S?: string } | undefined)?.S;
    return [entityOf(record.dynamodb?.NewImage), entityOf(record.dynamodb?.OldImage)].some(
      (entity) => typeof entity === 'string' && this.entities?.has(entity),
    );
  }

  /** Hands one batch to the handler; the sequence number of the last record applied (undefined: none). */
  private async invoke(arn: string, batch: readonly StreamsRecord[], counts: StreamPassCounts): Promise<string | undefined> {
    counts.batches += 1;
    const event: DynamoDBStreamEvent = { Records: batch.map((record) => this.lambdaRecord(arn, record)) };
    let failedAt: string | undefined;
    try {
      const response = await this.handler(event);
      failedAt = response?.batchItemFailures[0]?.itemIdentifier;
    } catch (error) {
      this.logger.error('table stream handler threw', { records: batch.length, error });
      failedAt = batch[0]?.dynamodb?.SequenceNumber;
    }
    if (failedAt === undefined) {
      counts.records += batch.length;
      return batch.at(-1)?.dynamodb?.SequenceNumber;
    }
    counts.failed += 1;
    const index = batch.findIndex((record) => record.dynamodb?.SequenceNumber === failedAt);
    const applied = index < 0 ? 0 : index;
    counts.records += applied;
    return applied === 0 ? undefined : batch[applied - 1]?.dynamodb?.SequenceNumber;
  }

  /** A record as Lambda delivers it: the image attributes as they are, the time in epoch seconds. */
  private lambdaRecord(arn: string, record: StreamsRecord): DynamoDBRecord {
    const data = record.dynamodb ?? {};
    return {
      eventID: record.eventID,
      eventName: record.eventName,
      eventVersion: record.eventVersion ?? '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: record.awsRegion ?? this.region,
      eventSourceARN: arn,
      dynamodb: {
        ...(data.ApproximateCreationDateTime === undefined
          ? {}
          : { ApproximateCreationDateTime: Math.floor(data.ApproximateCreationDateTime.getTime() / 1000) }),
        Keys: data.Keys,
        NewImage: withEmptyMaps(data.NewImage),
        OldImage: withEmptyMaps(data.OldImage),
        SequenceNumber: data.SequenceNumber,
        SizeBytes: data.SizeBytes,
        StreamViewType: data.StreamViewType,
      },
    } as DynamoDBRecord;
  }

  private async latestStreamArn(): Promise<string> {
    if (this.streamArn !== undefined) return this.streamArn;
    const { Table } = await this.dynamo.send(new DescribeTableCommand({ TableName: this.tableName }));
    if (Table?.LatestStreamArn === undefined) throw new Error(`Table ${this.tableName} has no stream (ensureTable enables it)`);
    this.streamArn = Table.LatestStreamArn;
    return this.streamArn;
  }

  private async shards(arn: string): Promise<Shard[]> {
    const shards: Shard[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription } = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: arn, ...(start === undefined ? {} : { ExclusiveStartShardId: start }) }),
      );
      shards.push(...(StreamDescription?.Shards ?? []));
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start !== undefined);
    return shards;
  }
}

/**
 * Several consumers of the one table stream, each with its own place and filter, as several event
 * source mappings on AWS (the projections consumer and the outbound-event dispatcher): driven
 * together, so `drain()` applies everything written so far to every consumer.
 */
export class LocalTableStreams {
  constructor(private readonly streams: readonly LocalTableStream[]) {}

  /** Drains each consumer's stream in turn (the dispatcher's own writes are updates, which the others pass over). */
  async drain(maxPasses = 100): Promise<StreamPassCounts> {
    const total: StreamPassCounts = { records: 0, batches: 0, failed: 0 };
    for (const stream of this.streams) {
      const counts = await stream.drain(maxPasses);
      total.records += counts.records;
      total.batches += counts.batches;
      total.failed += counts.failed;
    }
    return total;
  }

  start(intervalMs = 500): void {
    for (const stream of this.streams) stream.start(intervalMs);
  }

  async stop(): Promise<void> {
    await Promise.all(this.streams.map((stream) => stream.stop()));
  }
}
