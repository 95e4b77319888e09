import { VECTOR_DIMENSION } from '#core/vectors/features';
import type { VectorStore } from '#core/vectors/store';
import { env } from '#shared/env';
import { DynamoVectorStore } from './dynamo-store';
import { S3VectorsStore } from './s3-vectors-store';

export { DynamoVectorStore } from './dynamo-store';
export { S3VectorsStore } from './s3-vectors-store';

/** The store for `VECTOR_STORE` (DESIGN §2: configuration picks the adapter). */
function storeFromEnv(): VectorStore {
  if (env.VECTOR_STORE === 'local') return new DynamoVectorStore();
  if (env.S3_VECTORS_BUCKET === undefined) throw new Error('S3_VECTORS_BUCKET is required when VECTOR_STORE is s3vectors');
  return new S3VectorsStore({
    bucket: env.S3_VECTORS_BUCKET,
    index: env.S3_VECTORS_INDEX,
    region: env.AWS_REGION,
    endpoint: env.S3_VECTORS_ENDPOINT,
    dimension: VECTOR_DIMENSION,
  });
}

/** The vector store in use, chosen once per process (its in-memory matrices live as long as the process). */
export const vectorStore: VectorStore = storeFromEnv();
