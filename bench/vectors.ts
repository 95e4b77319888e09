/**
 * `npm run bench -- vectors`: POST /api/v1/vectors/find-similar over one merchant's 10k and 100k
 * vectors in the local store (exact brute-force cosine over DynamoDB Local, DESIGN §2c), through the
 * vectors Lambda's handler with the REST proxy event API Gateway sends (the whole pipeline: key,
 * rate limit, validation, the operation). Reports, at each size: the first query (which loads the
 * merchant's matrix), then p50/p95 of 300 sequential queries, and the DynamoDB calls of one query;
 * and for POST /vectors/embed-event the DynamoDB calls of one request (one write). Target: p95 at
 * most 20 ms at 100k (issue 15). The vectors are written straight to the table in batches (as the
 * store writes them), not through the API, to keep seeding short.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { counted, installCallTally, perUnit } from './call-tally';
import { batchWrite } from './fixtures';
import { type Latency, summarise } from './measure';

const SIZES = [10_000, 100_000] as const;
const QUERIES = 300;
const WARMUP = 30;
const TARGET_P95_MS = 20;

const CODES = ['insufficient_funds', 'expired_card', 'do_not_honor', 'stolen_card', 'processing_error', 'card_declined', 'generic_decline', 'lost_card'];
const CURRENCIES = ['usd', 'eur', 'gbp', 'jpy', 'cad'];
const SEGMENTS = ['first_failure', 'repeat_failure', 'high_value', 'smb', 'enterprise'];
const STRATEGIES = ['retry', 'card_update', 'campaign_email', 'campaign_sms', 'provider', 'none'] as const;
const OUTCOMES = ['recovered', 'failed', 'pending'] as const;
const PSPS = ['stripe', 'adyen', 'braintree', 'paddle'];

/** A deterministic pseudo-random sequence (mulberry32), so every run seeds the same vectors. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface VectorsBenchSize {
  readonly vectors: number;
  readonly first_query_ms: number;
  readonly samples: number;
  readonly median_ms: number;
  readonly p95_ms: number;
  readonly verdict: 'PASS' | 'ABOVE TARGET';
  /** The store's query alone (version GetItem and the brute-force pass), without the request pipeline. */
  readonly store_median_ms: number;
  readonly store_p95_ms: number;
  readonly calls_per_query: string;
}

export interface VectorsBenchReport {
  readonly generated_at: string;
  readonly target_p95_ms: number;
  readonly sizes: readonly VectorsBenchSize[];
  readonly embed_event_calls: string;
  readonly seconds: number;
}

/** QUERIES sequential calls of `work`, timed one by one. */
async function timed(work: () => Promise<void>): Promise<Latency> {
  const durations: number[] = [];
  for (let i = 0; i < QUERIES; i += 1) {
    const at = performance.now();
    await work();
    durations.push(performance.now() - at);
  }
  return summarise(durations);
}

export async function benchVectors(): Promise<VectorsBenchReport> {
  const started = Date.now();
  const { handler } = await import('#api/vectors/handler');
  const { routes } = await import('#api/routes');
  const { createMerchant } = await import('#data/merchant-repository');
  const { createApiKey } = await import('#data/api-key-repository');
  const { documentClient } = await import('#data/client');
  const { recoveryVectorEntity } = await import('#data/entities/recovery-vector');
  const { VECTOR_ENTITY, vectorKeys } = await import('#data/keys');
  const { featureVector } = await import('#core/vectors/features');
  const { categoryOfCode } = await import('#core/vectors/recovery-features');
  const { env } = await import('#shared/env');
  const { findSimilarRecoveries } = await import('#services/vectors');
  const { toApiGatewayEvent } = await import('#lib/local/api-gateway-event');
  const { createLambdaContext } = await import('#lib/local/lambda-context');
  const { RouteMatcher } = await import('#lib/local/route-matcher');
  installCallTally();

  const merchant = await createMerchant({ name: 'Vectors bench', rate_limits: { read_per_minute: 1_000_000, write_per_minute: 1_000_000 } });
  const { key } = await createApiKey({ merchantId: merchant.id, scopes: ['read', 'write'], mode: 'test' });
  const matcher = new RouteMatcher(routes);
  const send = (path: string, body: unknown): Promise<APIGatewayProxyResult> => {
    const match = matcher.match('POST', path);
    if (match === undefined || !('route' in match)) throw new Error(`No row answers POST ${path}`);
    const request = {
      method: 'POST',
      url: path,
      rawHeaders: ['Host', 'api.bench.local', 'Authorization', `Bearer ${key}`, 'Content-Type', 'application/json'],
      body: Buffer.from(JSON.stringify(body)),
      sourceIp: '127.0.0.1',
    };
    return handler(toApiGatewayEvent(request, match, randomUUID()), createLambdaContext('recovery-vectors')) as Promise<APIGatewayProxyResult>;
  };

  const next = random(42);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
  let seeded = 0;
  const seedTo = async (total: number): Promise<void> => {
    const requests = [];
    for (; seeded < total; seeded += 1) {
      const declineCode = pick(CODES);
      const strategy = pick(STRATEGIES);
      const vector = featureVector({
        declineCode,
        declineCategory: categoryOfCode(declineCode),
        amount: Math.floor(100 + next() * 500_000),
        currency: pick(CURRENCIES),
        segment: pick(SEGMENTS),
        strategy,
        provider: pick(PSPS),
        failedAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 300 * 86_400_000)),
      });
      const record = {
        id: `pe_bench_${seeded}`,
        vector: new Uint8Array(vector.buffer),
        written_at: new Date().toISOString(),
        outcome: pick(OUTCOMES),
        strategy,
        decline_code: declineCode,
        customer_id: null,
      };
      requests.push({ PutRequest: { Item: recoveryVectorEntity.toItem(record, merchant.id) } });
    }
    const written = requests.length;
    // batchWrite empties the array it is given.
    await batchWrite(requests);
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: vectorKeys.version(merchant.id),
        UpdateExpression: 'SET entity = :entity ADD writes :writes, removals :removals',
        ExpressionAttributeValues: { ':entity': VECTOR_ENTITY.version, ':writes': written, ':removals': 0 },
      }),
    );
  };

  const query = () => ({
    decline_code: pick(CODES),
    amount_cents: Math.floor(100 + next() * 500_000),
    currency: pick(CURRENCIES),
    customer_segment: pick(SEGMENTS),
    top_k: 10,
  });
  /** The highest seeded index among the matches, so the run can check the newest vectors are searched. */
  let newest = -1;
  const findSimilar = async (): Promise<void> => {
    const response = await send('/api/v1/vectors/find-similar', query());
    if (response.statusCode !== 200) throw new Error(`find-similar answered ${response.statusCode}: ${response.body}`);
    const { data } = JSON.parse(response.body) as { data: { count: number; matches: { id: string }[] } };
    if (data.count !== 10) throw new Error('find-similar did not answer 10 matches');
    for (const match of data.matches) newest = Math.max(newest, Number(match.id.slice('pe_bench_'.length)));
  };
  // The store alone (the brute-force pass and the version check), without the request pipeline.
  const storeQuery = async (): Promise<void> => {
    const body = query();
    await findSimilarRecoveries(
      merchant.id,
      { declineCode: body.decline_code, amount: body.amount_cents, currency: body.currency, segment: body.customer_segment },
      10,
    );
  };

  const sizes: VectorsBenchSize[] = [];
  for (const size of SIZES) {
    const seeding = Date.now();
    await seedTo(size);
    process.stderr.write(`bench vectors: ${size} vectors seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s\n`);
    const before = performance.now();
    await findSimilar();
    const first = performance.now() - before;
    for (let i = 0; i < WARMUP; i += 1) await findSimilar();
    const latency = await timed(findSimilar);
    if (newest < size / 2) throw new Error(`No match among the newest half of ${size} vectors: the matrix is not up to date`);
    const store = await timed(storeQuery);
    await counted(findSimilar);
    sizes.push({
      vectors: size,
      first_query_ms: Math.round(first),
      ...latency,
      verdict: latency.p95_ms <= TARGET_P95_MS ? 'PASS' : 'ABOVE TARGET',
      store_median_ms: store.median_ms,
      store_p95_ms: store.p95_ms,
      calls_per_query: perUnit(1),
    });
  }

  const event = {
    id: 'pe_bench_embed',
    decline_code: 'insufficient_funds',
    amount_cents: 4999,
    currency: 'usd',
    customer_segment: 'smb',
    recovery_strategy: 'retry',
    outcome: 'recovered',
  };
  await send('/api/v1/vectors/embed-event', event);
  const embedded = await counted(() => send('/api/v1/vectors/embed-event', event));
  if (embedded.result.statusCode !== 200) throw new Error(`embed-event answered ${embedded.result.statusCode}`);
  return {
    generated_at: new Date().toISOString(),
    target_p95_ms: TARGET_P95_MS,
    sizes,
    embed_event_calls: perUnit(1),
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

export function formatVectors(report: VectorsBenchReport): string {
  const rows = report.sizes.map(
    (size) =>
      `${String(size.vectors).padStart(7)} vectors  first ${String(size.first_query_ms).padStart(6)} ms  p50 ${size.median_ms.toFixed(2)} ms  p95 ${size.p95_ms.toFixed(2)} ms  ${size.verdict}; store alone p50 ${size.store_median_ms.toFixed(2)} ms p95 ${size.store_p95_ms.toFixed(2)} ms  (${size.samples} queries; per query: ${size.calls_per_query})`,
  );
  return [
    `POST /vectors/find-similar, one merchant, local store (target p95 <= ${report.target_p95_ms} ms at 100k):`,
    ...rows,
    `POST /vectors/embed-event, per request: ${report.embed_event_calls}`,
    `whole run ${report.seconds} s`,
  ].join('\n');
}
