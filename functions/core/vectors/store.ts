import type { RecoveryStrategy, VectorOutcome } from './features';

/** What a stored vector carries beside its numbers: what the neighbour tells, and who it is about (erasure). */
export interface VectorMetadata {
  readonly outcome: VectorOutcome;
  readonly strategy: RecoveryStrategy;
  readonly decline_code: string;
  /** The customer the recovery was about, when known: erasure removes the customer's vectors. */
  readonly customer_id: string | null;
  /**
   * When the payment failed (ISO 8601), when known: the suggestions compare neighbours that failed
   * near a payday with the others (core/experiments/neighbour-rules.ts). Absent on vectors stored
   * before it was recorded, and on embedded events that name no `failed_at`.
   */
  readonly failed_at?: string | null;
}

export interface VectorEntry {
  /** The merchant's id of the recovery (a payment id, or the id embed-event was given). */
  readonly id: string;
  readonly vector: Float32Array;
  readonly metadata: VectorMetadata;
}

export interface VectorMatch {
  readonly id: string;
  /** Cosine similarity, -1 to 1 (1: same direction). */
  readonly score: number;
  readonly metadata: VectorMetadata;
}

/** Restricts a query to vectors whose metadata has these values. */
export interface VectorFilter {
  readonly outcome?: VectorOutcome;
  readonly strategy?: RecoveryStrategy;
}

/** The largest top-k a query may ask for (S3 Vectors' own limit on QueryVectors). */
export const MAX_VECTOR_TOP_K = 100;

/**
 * The vector store port (DESIGN §2c "Vectors"): vectors are kept per merchant, and no call sees
 * another merchant's. Amazon S3 Vectors on AWS, exact brute-force cosine over DynamoDB locally
 * (functions/adapters/vectors); both pass the same suite (test/integration/adapters/vectors).
 */
export interface VectorStore {
  /** Stores the vector under its id, replacing one stored before under the same id. */
  put(merchantId: string, entry: VectorEntry): Promise<void>;
  /** Removes one vector; false when there was none under the id. */
  delete(merchantId: string, id: string): Promise<boolean>;
  /** Removes every vector whose metadata names the customer; how many went. */
  deleteByCustomer(merchantId: string, customerId: string): Promise<number>;
  /** The `topK` (1 to MAX_VECTOR_TOP_K) most similar of the merchant's vectors, best first. */
  query(merchantId: string, vector: Float32Array, topK: number, filter?: VectorFilter): Promise<readonly VectorMatch[]>;
}
