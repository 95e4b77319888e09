import { setProviderSecret } from '#data/provider-secret-repository';
import { type Delivery, stripeFailedFor } from '#test/fixtures/provider-webhooks';
import { unique } from './seed';

/** The Stripe signing secret the suite gives its merchants. */
export const STRIPE_SECRET = 'whsec_reliability_0000000000000000000';

/** Lets `merchantId` receive Stripe deliveries signed with STRIPE_SECRET (as the operator CLI's `provider-secret set` does). */
export async function acceptStripe(merchantId: string): Promise<void> {
  await setProviderSecret(merchantId, 'stripe', STRIPE_SECRET);
}

/**
 * A signed `payment_intent.payment_failed` delivery of its own: the fixture's Stripe event with a
 * new event id, payment intent, charge, invoice, customer and email, so each is a different failure.
 */
export function distinctStripeFailure(declineCode = 'insufficient_funds'): { delivery: Delivery; paymentIntent: string; email: string } {
  const event = JSON.parse(stripeFailedFor(STRIPE_SECRET).body) as {
    id: string;
    data: {
      object: {
        id: string;
        customer: string;
        invoice: string;
        last_payment_error: { charge: string; decline_code: string; payment_method: { billing_details: { email: string } } };
      };
    };
  };
  const paymentIntent = unique('pi');
  const email = `${unique('storm')}@reliability.test`;
  event.id = unique('evt');
  event.data.object.id = paymentIntent;
  event.data.object.customer = unique('cus');
  event.data.object.invoice = unique('in');
  event.data.object.last_payment_error.charge = unique('ch');
  event.data.object.last_payment_error.decline_code = declineCode;
  event.data.object.last_payment_error.payment_method.billing_details.email = email;
  return { delivery: stripeFailedFor(STRIPE_SECRET, JSON.stringify(event)), paymentIntent, email };
}

/** A signed failed-payment delivery for a given customer email: its payload, stored by the intake, names the customer. */
export const customerStripeFailure = (email: string): Delivery => {
  const { delivery } = distinctStripeFailure();
  const event = JSON.parse(delivery.body) as { data: { object: { last_payment_error: { payment_method: { billing_details: { email: string } } } } } };
  event.data.object.last_payment_error.payment_method.billing_details.email = email;
  return stripeFailedFor(STRIPE_SECRET, JSON.stringify(event));
};
