import type { S3VectorsClient } from '@aws-sdk/client-s3vectors';
import type { RecoveryStrategy, VectorOutcome } from '#core/vectors/features';
import type { VectorEntry, VectorFilter, VectorMatch, VectorMetadata, VectorStore } from '#core/vectors/store';
import { MAX_VECTOR_TOP_K } from '#core/vectors/store';

/** Where the index is: its vector bucket and name, and (tests only) the endpoint of a test double. */
export interface S3VectorsLocation {
  readonly bucket: string;
  readonly index: string;
  readonly region: string;
  readonly endpoint?: string | undefined;
  /** The index's dimension (VECTOR_DIMENSION). */
  readonly dimension: number;
}

/** Rounds of query-then-delete erasure makes before it gives up (100 vectors a round). */
const MAX_ERASURE_ROUNDS = 1000;

/** A metadata filter of S3 Vectors (`$eq`, `$and`, …), in the shape the SDK's document type accepts. */
type Filter = { [key: string]: string | Filter | Filter[] };
type Document = Record<string, unknown>;
type Sdk = typeof import('@aws-sdk/client-s3vectors');

/**
 * The AWS `VectorStore`: Amazon S3 Vectors, one index for every merchant, with `merchant_id` a
 * metadata filter key on every query (DESIGN §2c). The index uses the cosine distance metric, so a
 * score is 1 - distance. A vector's key is `<merchant id>/<id>`, so two merchants' ids never meet.
 * Its metadata: merchant_id, id, outcome, strategy, decline_code, customer_id (empty when unknown),
 * failed_at (absent when unknown).
 *
 * S3 Vectors' search is approximate (docs/vectors.md gives AWS's recall figure) and it has no
 * delete by filter: erasure queries the customer's vectors (filter merchant_id and customer_id)
 * and deletes them by key, 100 a round, until a query finds none.
 */
export class S3VectorsStore implements VectorStore {
  private connection: Promise<{ sdk: Sdk; client: S3VectorsClient }> | undefined;

  constructor(private readonly location: S3VectorsLocation) {}

  /** The SDK and its client, loaded on first use, so that functions that never call it (erasure's, mostly) load no S3 Vectors code. */
  private connect(): Promise<{ sdk: Sdk; client: S3VectorsClient }> {
    const { region, endpoint } = this.location;
    this.connection ??= import('@aws-sdk/client-s3vectors').then((sdk) => ({
      sdk,
      client: new sdk.S3VectorsClient({
        region,
        ...(endpoint === undefined ? {} : { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
      }),
    }));
    return this.connection;
  }

  private get target() {
    return { vectorBucketName: this.location.bucket, indexName: this.location.index };
  }

  async put(merchantId: string, entry: VectorEntry): Promise<void> {
    const { sdk, client } = await this.connect();
    const { failed_at, ...rest } = entry.metadata;
    const metadata = {
      merchant_id: merchantId,
      id: entry.id,
      ...rest,
      customer_id: rest.customer_id ?? '',
      ...(failed_at === undefined || failed_at === null ? {} : { failed_at }),
    };
    await client.send(
      new sdk.PutVectorsCommand({ ...this.target, vectors: [{ key: keyOf(merchantId, entry.id), data: { float32: Array.from(entry.vector) }, metadata }] }),
    );
  }

  async delete(merchantId: string, id: string): Promise<boolean> {
    const { sdk, client } = await this.connect();
    const key = keyOf(merchantId, id);
    const { vectors } = await client.send(new sdk.GetVectorsCommand({ ...this.target, keys: [key] }));
    if ((vectors ?? []).length === 0) return false;
    await client.send(new sdk.DeleteVectorsCommand({ ...this.target, keys: [key] }));
    return true;
  }

  async deleteByCustomer(merchantId: string, customerId: string): Promise<number> {
    const { sdk, client } = await this.connect();
    let removed = 0;
    const filter: Filter = { $and: [{ merchant_id: { $eq: merchantId } }, { customer_id: { $eq: customerId } }] };
    // Any direction finds them all, since the filter alone decides which vectors qualify.
    const probe = new Array<number>(this.location.dimension).fill(0);
    probe[0] = 1;
    for (let round = 0; round < MAX_ERASURE_ROUNDS; round += 1) {
      const { vectors } = await client.send(
        new sdk.QueryVectorsCommand({ ...this.target, topK: MAX_VECTOR_TOP_K, queryVector: { float32: probe }, filter, returnMetadata: false }),
      );
      const keys = (vectors ?? []).map((vector) => vector.key).filter((key): key is string => key !== undefined);
      if (keys.length === 0) break;
      await client.send(new sdk.DeleteVectorsCommand({ ...this.target, keys }));
      removed += keys.length;
    }
    return removed;
  }

  async query(merchantId: string, vector: Float32Array, topK: number, filter?: VectorFilter): Promise<readonly VectorMatch[]> {
    const { sdk, client } = await this.connect();
    const clauses: Filter[] = [{ merchant_id: { $eq: merchantId } }];
    if (filter?.outcome !== undefined) clauses.push({ outcome: { $eq: filter.outcome } });
    if (filter?.strategy !== undefined) clauses.push({ strategy: { $eq: filter.strategy } });
    const { vectors } = await client.send(
      new sdk.QueryVectorsCommand({
        ...this.target,
        topK,
        queryVector: { float32: Array.from(vector) },
        filter: clauses.length === 1 ? (clauses[0] as Filter) : { $and: clauses },
        returnMetadata: true,
        returnDistance: true,
      }),
    );
    return (vectors ?? []).map((found) => {
      const metadata = (found.metadata ?? {}) as Document;
      return { id: String(metadata.id ?? idOf(merchantId, found.key ?? '')), score: 1 - (found.distance ?? 1), metadata: metadataOf(metadata) };
    });
  }
}

const keyOf = (merchantId: string, id: string): string => `${merchantId}/${id}`;
const idOf = (merchantId: string, key: string): string => key.slice(merchantId.length + 1);

const metadataOf = (metadata: Document): VectorMetadata => ({
  outcome: String(metadata.outcome) as VectorOutcome,
  strategy: String(metadata.strategy) as RecoveryStrategy,
  decline_code: String(metadata.decline_code ?? ''),
  customer_id: typeof metadata.customer_id === 'string' && metadata.customer_id !== '' ? metadata.customer_id : null,
  failed_at: typeof metadata.failed_at === 'string' ? metadata.failed_at : null,
});
