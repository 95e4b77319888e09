/**
 * The VectorStore port's one suite, run against both adapters (DESIGN §2c): the local store
 * (exact cosine over DynamoDB Local, with its in-memory matrix) and the S3 Vectors adapter through
 * @aws-sdk/client-s3vectors against a loopback fake of S3 Vectors' REST API.
 */
import { randomUUID } from 'node:crypto';
import { DynamoVectorStore, S3VectorsStore } from '#adapters/vectors/index';
import { featureVector, normalised, VECTOR_DIMENSION } from '#core/vectors/features';
import type { VectorMetadata, VectorStore } from '#core/vectors/store';
import { type S3VectorsFake, startS3VectorsFake } from '#test/fakes/s3-vectors-api';

const metadata = (overrides: Partial<VectorMetadata> = {}): VectorMetadata => ({
  outcome: 'recovered',
  strategy: 'retry',
  decline_code: 'insufficient_funds',
  customer_id: null,
  failed_at: null,
  ...overrides,
});

/** A unit vector pointing mostly along axis `axis`, tilted towards axis 1 by `tilt`. */
const axisVector = (axis: number, tilt = 0): Float32Array => {
  const raw = new Float64Array(VECTOR_DIMENSION);
  raw[axis] = 1;
  raw[1] = (raw[1] ?? 0) + tilt;
  return normalised(raw);
};

let fake: S3VectorsFake;

beforeAll(async () => {
  fake = await startS3VectorsFake(VECTOR_DIMENSION);
});

afterAll(async () => {
  await fake.stop();
});

const adapters: [string, () => VectorStore][] = [
  ['local (DynamoDB, exact cosine)', () => new DynamoVectorStore()],
  [
    'S3 Vectors (loopback fake)',
    () => new S3VectorsStore({ bucket: fake.bucket, index: fake.index, region: 'us-east-1', endpoint: fake.url, dimension: VECTOR_DIMENSION }),
  ],
];

describe.each(adapters)('VectorStore: %s', (_name, create) => {
  let store: VectorStore;
  let merchantId: string;

  beforeEach(() => {
    store = create();
    merchantId = `merch_${randomUUID()}`;
  });

  it('finds a stored vector with its metadata, scored by cosine similarity', async () => {
    // Prepare
    await store.put(merchantId, { id: 'pe_1', vector: axisVector(0), metadata: metadata({ customer_id: 'cust_1', failed_at: '2026-11-02T10:00:00.000Z' }) });

    // Act
    const [match, ...rest] = await store.query(merchantId, axisVector(0), 10);

    // Assess
    expect(rest).toEqual([]);
    expect(match?.id).toBe('pe_1');
    expect(match?.score).toBeCloseTo(1, 5);
    expect(match?.metadata).toEqual(metadata({ customer_id: 'cust_1', failed_at: '2026-11-02T10:00:00.000Z' }));
  });

  it('ranks by cosine similarity, best first, and returns at most top-k', async () => {
    // Prepare
    await store.put(merchantId, { id: 'far', vector: axisVector(5), metadata: metadata() });
    await store.put(merchantId, { id: 'near', vector: axisVector(0, 0.2), metadata: metadata() });
    await store.put(merchantId, { id: 'nearer', vector: axisVector(0, 0.05), metadata: metadata() });

    // Act
    const top2 = await store.query(merchantId, axisVector(0), 2);
    const all = await store.query(merchantId, axisVector(0), 10);

    // Assess
    expect(top2.map((match) => match.id)).toEqual(['nearer', 'near']);
    expect(all.map((match) => match.id)).toEqual(['nearer', 'near', 'far']);
    expect(all[2]?.score).toBeCloseTo(0, 5);
    expect(all[0]?.score).toBeGreaterThan(all[1]?.score ?? 1);
  });

  it('never returns another merchant’s vectors, even under the same id', async () => {
    // Prepare
    const other = `merch_${randomUUID()}`;
    await store.put(other, { id: 'pe_1', vector: axisVector(0), metadata: metadata({ outcome: 'failed' }) });
    await store.put(merchantId, { id: 'pe_1', vector: axisVector(3), metadata: metadata() });

    // Act
    const mine = await store.query(merchantId, axisVector(0), 10);
    const theirs = await store.query(other, axisVector(0), 10);

    // Assess
    expect(mine.map((match) => [match.id, match.metadata.outcome])).toEqual([['pe_1', 'recovered']]);
    expect(theirs.map((match) => [match.id, match.metadata.outcome])).toEqual([['pe_1', 'failed']]);
  });

  it('replaces a vector put again under the same id', async () => {
    // Prepare
    await store.put(merchantId, { id: 'pe_1', vector: axisVector(0), metadata: metadata({ outcome: 'pending' }) });
    await store.query(merchantId, axisVector(0), 10);

    // Act
    await store.put(merchantId, { id: 'pe_1', vector: axisVector(4), metadata: metadata({ outcome: 'recovered' }) });
    const found = await store.query(merchantId, axisVector(4), 10);

    // Assess
    expect(found).toHaveLength(1);
    expect(found[0]?.metadata.outcome).toBe('recovered');
    expect(found[0]?.score).toBeCloseTo(1, 5);
  });

  it('filters by outcome and strategy', async () => {
    // Prepare
    await store.put(merchantId, { id: 'a', vector: axisVector(0), metadata: metadata({ outcome: 'failed', strategy: 'retry' }) });
    await store.put(merchantId, { id: 'b', vector: axisVector(0, 0.5), metadata: metadata({ outcome: 'recovered', strategy: 'card_update' }) });
    await store.put(merchantId, { id: 'c', vector: axisVector(0, 0.9), metadata: metadata({ outcome: 'recovered', strategy: 'retry' }) });

    // Act
    const recovered = await store.query(merchantId, axisVector(0), 10, { outcome: 'recovered' });
    const recoveredByRetry = await store.query(merchantId, axisVector(0), 10, { outcome: 'recovered', strategy: 'retry' });

    // Assess
    expect(recovered.map((match) => match.id)).toEqual(['b', 'c']);
    expect(recoveredByRetry.map((match) => match.id)).toEqual(['c']);
  });

  it('deletes one vector by id, and says whether there was one', async () => {
    // Prepare
    await store.put(merchantId, { id: 'keep', vector: axisVector(0), metadata: metadata() });
    await store.put(merchantId, { id: 'drop', vector: axisVector(0, 0.1), metadata: metadata() });
    await store.query(merchantId, axisVector(0), 10);

    // Act
    const first = await store.delete(merchantId, 'drop');
    const again = await store.delete(merchantId, 'drop');
    const found = await store.query(merchantId, axisVector(0), 10);

    // Assess
    expect([first, again]).toEqual([true, false]);
    expect(found.map((match) => match.id)).toEqual(['keep']);
  });

  it('deletes every vector of one customer, and only theirs (erasure)', async () => {
    // Prepare
    for (let i = 0; i < 7; i += 1) await store.put(merchantId, { id: `gone_${i}`, vector: axisVector(i), metadata: metadata({ customer_id: 'cust_erased' }) });
    await store.put(merchantId, { id: 'stays', vector: axisVector(0), metadata: metadata({ customer_id: 'cust_other' }) });
    await store.put(merchantId, { id: 'anonymous', vector: axisVector(1), metadata: metadata() });
    await store.query(merchantId, axisVector(0), 10);

    // Act
    const removed = await store.deleteByCustomer(merchantId, 'cust_erased');
    const found = await store.query(merchantId, axisVector(0), 50);

    // Assess
    expect(removed).toBe(7);
    expect(found.map((match) => match.id).sort()).toEqual(['anonymous', 'stays']);
    expect(await store.deleteByCustomer(merchantId, 'cust_erased')).toBe(0);
  });

  it('returns nothing for a merchant with no vectors', async () => {
    // Act
    const found = await store.query(merchantId, featureVector({ declineCode: 'do_not_honor', amount: 100 }), 5);

    // Assess
    expect(found).toEqual([]);
  });
});

describe('DynamoVectorStore: the in-memory matrix', () => {
  it('picks up the first vectors of a merchant it had already found empty', async () => {
    // Prepare
    const merchantId = `merch_${randomUUID()}`;
    const store = new DynamoVectorStore();
    expect(await store.query(merchantId, axisVector(0), 10)).toEqual([]);

    // Act
    await store.put(merchantId, { id: 'first', vector: axisVector(0), metadata: metadata() });
    const found = await store.query(merchantId, axisVector(0), 10);

    // Assess
    expect(found.map((match) => match.id)).toEqual(['first']);
  });

  it('sees what another process wrote and removed since its last query', async () => {
    // Prepare
    const merchantId = `merch_${randomUUID()}`;
    const reader = new DynamoVectorStore();
    const writer = new DynamoVectorStore();
    await writer.put(merchantId, { id: 'old', vector: axisVector(0), metadata: metadata() });
    expect((await reader.query(merchantId, axisVector(0), 10)).map((match) => match.id)).toEqual(['old']);

    // Act
    await writer.put(merchantId, { id: 'new', vector: axisVector(0, 0.1), metadata: metadata() });
    const afterPut = await reader.query(merchantId, axisVector(0), 10);
    await writer.delete(merchantId, 'old');
    const afterDelete = await reader.query(merchantId, axisVector(0), 10);

    // Assess
    expect(afterPut.map((match) => match.id)).toEqual(['old', 'new']);
    expect(afterDelete.map((match) => match.id)).toEqual(['new']);
  });
});

describe('S3VectorsStore', () => {
  it('writes a vector with one PutVectors request and queries with the merchant as a filter', async () => {
    // Prepare
    const store = new S3VectorsStore({ bucket: fake.bucket, index: fake.index, region: 'us-east-1', endpoint: fake.url, dimension: VECTOR_DIMENSION });
    const merchantId = `merch_${randomUUID()}`;
    const before = fake.calls('PutVectors');

    // Act
    await store.put(merchantId, { id: 'pe_9', vector: axisVector(2), metadata: metadata() });
    await store.query(merchantId, axisVector(2), 3);

    // Assess
    expect(fake.calls('PutVectors') - before).toBe(1);
    const query = JSON.parse(fake.requests.filter((request) => request.path === '/QueryVectors').at(-1)?.bodyText ?? '{}') as { filter: unknown; topK: number };
    expect(query.filter).toEqual({ merchant_id: { $eq: merchantId } });
    expect(query.topK).toBe(3);
  });
});
