import type { FetchedPayment, FetchedPaymentMethod, FetchedRefund, FetchedResource, FetchedSubscription } from '#core/provider-api';

/**
 * What an adapter's fetchResource gave, narrowed to the kind a test expects (the test fails on
 * another kind), so assertions read the reduced resource itself. A rejection passes through.
 */
async function ofKind<K extends FetchedResource['kind']>(kind: K, fetching: Promise<FetchedResource>): Promise<Extract<FetchedResource, { kind: K }>> {
  const fetched = await fetching;
  if (fetched.kind !== kind) throw new Error(`fetched a ${fetched.kind}, expected a ${kind}`);
  return fetched as Extract<FetchedResource, { kind: K }>;
}

export const fetchedPayment = async (fetching: Promise<FetchedResource>): Promise<FetchedPayment> => (await ofKind('payment', fetching)).payment;
export const fetchedRefund = async (fetching: Promise<FetchedResource>): Promise<FetchedRefund> => (await ofKind('refund', fetching)).refund;
export const fetchedSubscription = async (fetching: Promise<FetchedResource>): Promise<FetchedSubscription> =>
  (await ofKind('subscription', fetching)).subscription;
export const fetchedPaymentMethod = async (fetching: Promise<FetchedResource>): Promise<FetchedPaymentMethod> =>
  (await ofKind('payment_method', fetching)).paymentMethod;
