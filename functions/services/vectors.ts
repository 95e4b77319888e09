import { vectorStore } from '#adapters/vectors/index';
import { type RecoveryFeatures, featureVector } from '#core/vectors/features';
import type { VectorFilter, VectorMatch, VectorMetadata } from '#core/vectors/store';

/**
 * The merchant's `topK` past recoveries most similar to `features`, best first (cosine over the
 * feature vectors of core/vectors/features.ts). Only this merchant's vectors are searched.
 *
 * @example const neighbours = await findSimilarRecoveries('merch_1', { declineCode: 'insufficient_funds', amount: 4999, currency: 'usd' }, 10);
 */
export async function findSimilarRecoveries(
  merchantId: string,
  features: RecoveryFeatures,
  topK: number,
  filter?: VectorFilter,
): Promise<readonly VectorMatch[]> {
  return vectorStore.query(merchantId, featureVector(features), topK, filter);
}

/** Stores (or replaces) the vector of one recovery: one write. */
export async function embedRecovery(merchantId: string, id: string, features: RecoveryFeatures, metadata: VectorMetadata): Promise<void> {
  await vectorStore.put(merchantId, { id, vector: featureVector(features), metadata });
}

/** Removes every vector of the customer (erasure); how many went. */
export async function eraseCustomerVectors(merchantId: string, customerId: string): Promise<number> {
  return vectorStore.deleteByCustomer(merchantId, customerId);
}
