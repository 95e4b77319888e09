import { BatchWriteCommand, GetCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { VECTOR_DIMENSION } from '#core/vectors/features';
import type { VectorEntry, VectorFilter, VectorMatch, VectorMetadata, VectorStore } from '#core/vectors/store';
import { env } from '#shared/env';
import { documentClient } from '#data/client';
import { type RecoveryVectorRecord, recoveryVectorEntity } from '#data/entities/recovery-vector';
import { conditions, VECTOR_ENTITY, vectorKeys } from '#data/keys';
import { transactOptimistically } from '#data/transact';
import { VectorMatrix } from './matrix';

type Item = Record<string, unknown>;

/**
 * How far back an incremental refresh re-reads the write log before the newest write it has seen:
 * writes of other processes whose clocks lag, or that committed after a later-stamped one, are
 * still picked up (each is applied once more, harmlessly: an upsert by id).
 */
const REFRESH_OVERLAP_MS = 30_000;
/** Rows kept in memory over every merchant; the least recently queried merchants go first. */
const MAX_CACHED_ROWS = 600_000;
const BATCH_SIZE = 25;

const toBytes = (vector: Float32Array): Uint8Array => new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
const toVector = (bytes: Uint8Array): Float32Array => new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
const metadataOf = (record: RecoveryVectorRecord): VectorMetadata => ({
  outcome: record.outcome,
  strategy: record.strategy,
  decline_code: record.decline_code,
  customer_id: record.customer_id,
  failed_at: record.failed_at ?? null,
});

/** The merchant's vector version: how many writes and removals its vectors have seen. */
interface Version {
  readonly writes: number;
  readonly removals: number;
}

interface Cached {
  readonly matrix: VectorMatrix;
  version: Version;
  /** The newest `written_at` read so far. */
  highWater: string;
}

/**
 * The local `VectorStore`: exact brute-force cosine over the merchant's vectors in DynamoDB Local
 * (DESIGN §2c). Each vector is one item under the merchant; a version item counts its writes and
 * removals. A query reads the version item (one GetItem) and compares it with the matrix it keeps
 * in memory for the merchant:
 * - same version: the matrix is current, no other read;
 * - more writes: only the vectors written since the newest one it holds are read (the write log,
 *   GSI3), and upserted;
 * - more removals (a delete, an erasure; rare): the matrix is read again whole (one Query, paged).
 * A put is one TransactWriteItems request (the vector and the version's count).
 */
export class DynamoVectorStore implements VectorStore {
  private readonly cache = new Map<string, Cached>();

  async put(merchantId: string, entry: VectorEntry): Promise<void> {
    const record: RecoveryVectorRecord = { id: entry.id, vector: toBytes(entry.vector), written_at: new Date().toISOString(), ...entry.metadata };
    await transactOptimistically(async () => ({
      result: undefined,
      items: [{ Put: { TableName: env.TABLE_NAME, Item: recoveryVectorEntity.toItem(record, merchantId) } }, this.bump(merchantId, { writes: 1, removals: 0 })],
    }));
  }

  async delete(merchantId: string, id: string): Promise<boolean> {
    return transactOptimistically(async () => {
      const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: vectorKeys.vector(merchantId, id), ConsistentRead: true }));
      if (Item === undefined) return { items: [], result: false };
      return {
        result: true,
        items: [
          { Delete: { TableName: env.TABLE_NAME, Key: vectorKeys.vector(merchantId, id), ConditionExpression: conditions.exists } },
          this.bump(merchantId, { writes: 1, removals: 1 }),
        ],
      };
    });
  }

  async deleteByCustomer(merchantId: string, customerId: string): Promise<number> {
    let removed = 0;
    const pages = paginateQuery(
      { client: documentClient, pageSize: 100 },
      { TableName: env.TABLE_NAME, ...vectorKeys.customerVectors(merchantId, customerId), ProjectionExpression: 'PK, SK' },
    );
    for await (const page of pages) {
      const found = (page.Items ?? []) as { PK: string; SK: string }[];
      for (let start = 0; start < found.length; start += BATCH_SIZE) {
        let requests = found.slice(start, start + BATCH_SIZE).map(({ PK, SK }) => ({ DeleteRequest: { Key: { PK, SK } } }));
        while (requests.length > 0) {
          const { UnprocessedItems } = await documentClient.send(new BatchWriteCommand({ RequestItems: { [env.TABLE_NAME]: requests } }));
          requests = (UnprocessedItems?.[env.TABLE_NAME] ?? []) as typeof requests;
        }
      }
      removed += found.length;
    }
    if (removed > 0) await transactOptimistically(async () => ({ result: undefined, items: [this.bump(merchantId, { writes: 1, removals: 1 })] }));
    return removed;
  }

  async query(merchantId: string, vector: Float32Array, topK: number, filter?: VectorFilter): Promise<readonly VectorMatch[]> {
    const cached = await this.current(merchantId);
    return cached.matrix.query(vector, topK, filter);
  }

  /** The version item's update for a transaction. */
  private bump(merchantId: string, by: Version) {
    return {
      Update: {
        TableName: env.TABLE_NAME,
        Key: vectorKeys.version(merchantId),
        UpdateExpression: 'SET entity = :entity ADD writes :writes, removals :removals',
        ExpressionAttributeValues: { ':entity': VECTOR_ENTITY.version, ':writes': by.writes, ':removals': by.removals },
      },
    };
  }

  private async readVersion(merchantId: string): Promise<Version> {
    const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: vectorKeys.version(merchantId), ConsistentRead: true }));
    return { writes: (Item?.writes as number | undefined) ?? 0, removals: (Item?.removals as number | undefined) ?? 0 };
  }

  /** The merchant's matrix, brought up to date with the version item. */
  private async current(merchantId: string): Promise<Cached> {
    const version = await this.readVersion(merchantId);
    let cached = this.cache.get(merchantId);
    if (cached === undefined || cached.version.removals !== version.removals) {
      cached = { matrix: new VectorMatrix(VECTOR_DIMENSION), version, highWater: '' };
      await this.load(cached, { TableName: env.TABLE_NAME, ...vectorKeys.vectors(merchantId) });
    } else if (cached.version.writes !== version.writes) {
      // Before every written_at (an empty sort key is not a valid key condition value).
      const since = cached.highWater === '' ? '0' : new Date(Date.parse(cached.highWater) - REFRESH_OVERLAP_MS).toISOString();
      await this.load(cached, { TableName: env.TABLE_NAME, ...vectorKeys.writtenSince(merchantId, since) });
      cached.version = version;
    }
    // Most recently used last, so eviction takes the first.
    this.cache.delete(merchantId);
    this.cache.set(merchantId, cached);
    this.evict();
    return cached;
  }

  private async load(cached: Cached, input: Parameters<typeof paginateQuery>[1]): Promise<void> {
    for await (const page of paginateQuery({ client: documentClient, pageSize: 1000 }, input)) {
      for (const item of (page.Items ?? []) as Item[]) {
        const record = recoveryVectorEntity.fromItem(item);
        cached.matrix.upsert(record.id, toVector(record.vector), metadataOf(record));
        if (record.written_at > cached.highWater) cached.highWater = record.written_at;
      }
    }
  }

  private evict(): void {
    let rows = 0;
    for (const cached of this.cache.values()) rows += cached.matrix.size;
    for (const [merchantId, cached] of this.cache) {
      if (rows <= MAX_CACHED_ROWS || this.cache.size === 1) return;
      this.cache.delete(merchantId);
      rows -= cached.matrix.size;
    }
  }
}
