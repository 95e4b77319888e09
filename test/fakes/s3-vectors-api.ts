import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * A loopback stand-in for Amazon S3 Vectors' REST API (POST /PutVectors, /GetVectors,
 * /QueryVectors, /DeleteVectors with JSON bodies, as @aws-sdk/client-s3vectors sends them), over
 * one vector bucket with one cosine index. Exact search (the real service is approximate), metadata
 * filters with `$eq` and `$and` (and a bare value meaning `$eq`), topK 1-100, errors in the
 * service's shape (`x-amzn-errortype`-less JSON `{ __type, message }`, which the SDK reads).
 */
export interface S3VectorsFake extends JsonApiServer {
  readonly bucket: string;
  readonly index: string;
  /** How many vectors the index holds. */
  readonly size: () => number;
  /** Requests by operation name (`PutVectors`, …). */
  readonly calls: (operation: string) => number;
}

interface Stored {
  readonly data: number[];
  readonly metadata: Record<string, unknown>;
}

type Filter = Record<string, unknown>;

function matches(metadata: Record<string, unknown>, filter: Filter): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (key === '$and') return (condition as Filter[]).every((part) => matches(metadata, part));
    if (key === '$or') return (condition as Filter[]).some((part) => matches(metadata, part));
    if (condition !== null && typeof condition === 'object' && '$eq' in condition) return metadata[key] === (condition as { $eq: unknown }).$eq;
    return metadata[key] === condition;
  });
}

function cosineDistance(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb);
}

const error = (status: number, type: string, message: string) => ({ status, body: { __type: type, message } });

export async function startS3VectorsFake(dimension: number, bucket = 'recovery-vectors', index = 'recoveries'): Promise<S3VectorsFake> {
  const vectors = new Map<string, Stored>();
  const server = await startJsonApiServer({
    methods: ['POST'],
    authorised: (headers) => String(headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256'),
    route: (path, request) => {
      const body = JSON.parse(request.bodyText || '{}') as Record<string, unknown>;
      if (body.vectorBucketName !== bucket || body.indexName !== index) return error(404, 'NotFoundException', 'The specified index could not be found');
      switch (path) {
        case '/PutVectors': {
          const put = body.vectors as { key: string; data: { float32: number[] }; metadata?: Record<string, unknown> }[];
          if (put.some((vector) => vector.data.float32.length !== dimension))
            return error(400, 'ValidationException', `Vectors must have dimension ${dimension}`);
          for (const vector of put) vectors.set(vector.key, { data: vector.data.float32, metadata: vector.metadata ?? {} });
          return { body: {} };
        }
        case '/GetVectors': {
          const keys = body.keys as string[];
          return { body: { vectors: keys.filter((key) => vectors.has(key)).map((key) => ({ key, metadata: vectors.get(key)?.metadata })) } };
        }
        case '/DeleteVectors':
          for (const key of body.keys as string[]) vectors.delete(key);
          return { body: {} };
        case '/QueryVectors': {
          const topK = body.topK as number;
          const query = (body.queryVector as { float32: number[] }).float32;
          if (!Number.isInteger(topK) || topK < 1 || topK > 100) return error(400, 'ValidationException', 'topK must be between 1 and 100');
          if (query.length !== dimension) return error(400, 'ValidationException', `Query vector must have dimension ${dimension}`);
          const filter = (body.filter ?? {}) as Filter;
          const found = [...vectors.entries()]
            .filter(([, stored]) => matches(stored.metadata, filter))
            .map(([key, stored]) => ({ key, distance: cosineDistance(query, stored.data), metadata: stored.metadata }))
            .sort((a, b) => a.distance - b.distance)
            .slice(0, topK)
            .map(({ key, distance, metadata }) => ({
              key,
              ...(body.returnDistance === true ? { distance } : {}),
              ...(body.returnMetadata === true ? { metadata } : {}),
            }));
          return { body: { vectors: found, distanceMetric: 'cosine' } };
        }
        default:
          return undefined;
      }
    },
  });
  return {
    ...server,
    bucket,
    index,
    size: () => vectors.size,
    calls: (operation) => server.requests.filter((request) => request.path === `/${operation}`).length,
  };
}
