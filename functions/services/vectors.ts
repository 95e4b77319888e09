import { vectorStore } from '#adapters/vectors/index';
import { ResourceNotFoundError } from '#core/errors';
import type { PaymentRecord } from '#core/payments';
import { featureVector, type RecoveryFeatures } from '#core/vectors/features';
import { recommendFromNeighbours, type StrategyRecommendation } from '#core/vectors/recommend';
import { featuresOfPayment, isEmbeddable, outcomeOfPayment, strategyOfPayment } from '#core/vectors/recovery-features';
import type { VectorFilter, VectorMatch, VectorMetadata } from '#core/vectors/store';
import { getPaymentByAnyId } from '#data/payment-repository';

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

/** Neighbours a recommendation is drawn from. */
export const RECOMMENDATION_NEIGHBOURS = 50;

/**
 * The strategy the payment's nearest past recoveries (the merchant's own, the payment itself left
 * out) suggest, with a confidence (core/vectors/recommend.ts). 404 for a payment the merchant
 * does not have, another merchant's included.
 */
export async function recommendStrategyFor(merchantId: string, paymentId: string): Promise<StrategyRecommendation & { payment_id: string }> {
  const payment = await getPaymentByAnyId(merchantId, paymentId);
  if (payment === undefined) throw new ResourceNotFoundError(`No payment has the id ${paymentId}.`, { param: 'payment_id' });
  const found = await findSimilarRecoveries(merchantId, featuresOfPayment(payment, false), RECOMMENDATION_NEIGHBOURS + 1);
  const neighbours = found.filter((match) => match.id !== payment.id).slice(0, RECOMMENDATION_NEIGHBOURS);
  return { payment_id: payment.id, ...recommendFromNeighbours(neighbours) };
}

/**
 * Embeds a recovered or terminal payment (auto-embedding; functions/consumers/embed-recoveries.ts):
 * its vector is stored under its payment id, so embedding it again (a redelivered change) replaces
 * the same vector. False for a payment whose outcome is not known yet.
 */
export async function embedPayment(payment: PaymentRecord): Promise<boolean> {
  if (!isEmbeddable(payment)) return false;
  await embedRecovery(payment.merchant_id, payment.id, featuresOfPayment(payment, true), {
    outcome: outcomeOfPayment(payment),
    strategy: strategyOfPayment(payment),
    decline_code: payment.decline_code ?? 'unknown',
    customer_id: payment.customer_id,
    failed_at: payment.created_at,
  });
  return true;
}

/** Removes the vector of a payment that was deleted (erasure); false when it had none. */
export async function forgetPayment(merchantId: string, paymentId: string): Promise<boolean> {
  return vectorStore.delete(merchantId, paymentId);
}
