import { ResourceNotFoundError } from '#core/errors';
import { type PaymentRecord, paymentBodyOf } from '#core/payments';
import { getPaymentByAnyId } from '#data/payment-repository';

/**
 * The merchant's payment that `{id}` names on every payments route: its `pe_` id, its recovery's
 * `rec_` id or the provider's charge id (B). Absent, or another merchant's: 404.
 */
export async function findPayment(merchantId: string, id: string): Promise<PaymentRecord> {
  const payment = await getPaymentByAnyId(merchantId, id);
  if (payment === undefined) throw new ResourceNotFoundError(`No payment ${id}.`);
  return payment;
}

/**
 * The `pe_`/`rec_` id a transition is applied to. Our own ids go straight to the transition,
 * which reads the payment itself (and answers 404 when it is absent); only a provider charge id
 * needs its reference read first.
 */
export async function transitionIdOf(merchantId: string, id: string): Promise<string> {
  return paymentBodyOf(id) === undefined ? (await findPayment(merchantId, id)).id : id;
}
