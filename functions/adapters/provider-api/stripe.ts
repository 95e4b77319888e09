import type Stripe from 'stripe';
import {
  type FetchedCustomer,
  type FetchedResource,
  fetchingResources,
  type ProviderApi,
  type ProviderApiCredentials,
  ProviderApiError,
  type ProviderCustomerFetcher,
} from '#core/provider-api';
import { at, isObject, text } from '#webhooks/json-payload';
import { INVOICE_PAYMENT_RESOURCE, invoicePaymentId } from '#webhooks/stripe';
import { PROVIDER_API_TIMEOUT_MS, providerApiErrorOfStatus } from './http';
import { StripeApiError, StripeConnectionError, stripeClientFor } from './stripe-http';

/**
 * Stripe's API over plain HTTP (stripe-http.ts; https://docs.stripe.com/api/customers/retrieve),
 * with the merchant's secret or restricted key (`sk_…` / `rk_…`, customer read access). Stripe's
 * payment events name the customer (`cus_…`) but often carry no email (a PaymentIntent's
 * `receipt_email` and the card's billing email are optional): `GET /v1/customers/{id}` answers the
 * customer with `email` and `name`, or, for a deleted customer, `{ id, object, deleted: true }`,
 * which holds no email.
 *
 * One resource is fetched, `invoice_payment` (functions/webhooks/stripe.ts): the payment of a
 * failed invoice whose webhook event names none, as since API version 2025-03-31.basil, which
 * removed `payment_intent` and `charge` from the Invoice
 * (https://docs.stripe.com/changelog/basil/2025-03-31/add-support-for-multiple-partial-payments-on-invoices).
 * `GET /v1/invoices/{id}?expand[]=payments&expand[]=payments.data.payment.payment_intent`
 * (https://docs.stripe.com/api/invoices/retrieve; the includable `payments` list of InvoicePayment
 * objects, https://docs.stripe.com/api/invoice-payment/object) answers, in one call, the invoice's
 * amount due, currency, customer and subscription, and its payments, each naming its PaymentIntent
 * as `payment.payment_intent`, expanded so that its `last_payment_error.decline_code` is read too
 * (an id alone is taken as well). The PaymentIntent (else, for a payment without one, the charge)
 * becomes the payment id, so the invoice event and its sibling `payment_intent.payment_failed` /
 * `charge.failed` events name one payment and ingest opens one recovery. The key then needs read
 * access to invoices (and PaymentIntents, for the decline code). An invoice with no such payment
 * is a `bad_response` (the message ends in the DLQ; nothing is recorded under a made-up id).
 *
 * The client (stripe-http.ts) is pointed at STRIPE_API_BASE_URL (read at each call), so tests
 * reach a loopback fake; it does not retry (the queue's redelivery is the service's retry) and
 * gives up after PROVIDER_API_TIMEOUT_MS. The response types are the `stripe` SDK's (types only:
 * nothing of the SDK is bundled).
 */
const PROVIDER = 'stripe';

/** The client's error as a ProviderApiError: no answer (network, timeout) → unavailable; else by the answer's status. */
function providerApiErrorOf(error: unknown, what = 'a customer'): ProviderApiError {
  if (error instanceof StripeConnectionError) {
    return new ProviderApiError(PROVIDER, 'unavailable', `no answer within ${PROVIDER_API_TIMEOUT_MS} ms or the request failed before an answer`, {
      cause: error,
    });
  }
  if (error instanceof StripeApiError) return providerApiErrorOfStatus(PROVIDER, error.status, { cause: error });
  return new ProviderApiError(PROVIDER, 'bad_response', `answered with something that is not ${what}`, { cause: error });
}

/**
 * The failed payment of invoice `invoiceId` (see above): its PaymentIntent (else its charge) as
 * payment id; amount due, currency, customer, subscription and invoice from the invoice; the
 * decline code of the PaymentIntent's last error when it came expanded; status failed (the event
 * that named the invoice is an `invoice.payment_failed`).
 */
async function fetchInvoicePayment(credentials: ProviderApiCredentials, invoiceId: string): Promise<FetchedResource> {
  let invoice: Stripe.Invoice;
  try {
    invoice = await stripeClientFor(credentials).get<Stripe.Invoice>(`/v1/invoices/${encodeURIComponent(invoiceId)}`, {
      expand: ['payments', 'payments.data.payment.payment_intent'],
    });
  } catch (error) {
    throw providerApiErrorOf(error, 'an invoice');
  }
  const providerPaymentId = invoicePaymentId(invoice as unknown as Record<string, unknown>);
  if (providerPaymentId === undefined)
    throw new ProviderApiError(PROVIDER, 'bad_response', 'answered an invoice with no PaymentIntent or charge among its payments');
  const amount = invoice.amount_due;
  const currency = text(invoice, 'currency')?.toLowerCase();
  if (!Number.isSafeInteger(amount) || currency === undefined)
    throw new ProviderApiError(PROVIDER, 'bad_response', 'answered an invoice without amount_due or currency');
  const intent = (invoice.payments?.data ?? [])
    .map((payment) => at(payment, 'payment.payment_intent'))
    .find((found): found is Stripe.PaymentIntent => isObject(found) && found.id === providerPaymentId);
  const error = intent?.last_payment_error ?? undefined;
  const idOf = (value: unknown): string | undefined => (isObject(value) ? text(value, 'id') : text(value));
  return {
    kind: 'payment',
    payment: {
      status: 'failed',
      providerPaymentId,
      amount,
      currency,
      declineCode: text(error, 'decline_code') ?? text(error, 'code'),
      invoiceId: text(invoice, 'id') ?? invoiceId,
      subscriptionId: idOf(invoice.parent?.subscription_details?.subscription) ?? idOf((invoice as unknown as Record<string, unknown>).subscription),
      customer: { providerCustomerId: idOf(invoice.customer), email: text(invoice, 'customer_email'), name: text(invoice, 'customer_name') },
    },
  };
}

/** `GET /v1/customers/{id}`: `email` and `name`; undefined for a deleted customer or one without email. */
async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  let customer: Stripe.Customer | Stripe.DeletedCustomer;
  try {
    customer = await stripeClientFor(credentials).get<Stripe.Customer | Stripe.DeletedCustomer>(`/v1/customers/${encodeURIComponent(providerCustomerId)}`);
  } catch (error) {
    throw providerApiErrorOf(error);
  }
  if (customer.deleted === true) return undefined;
  const email = text(customer, 'email');
  return email === undefined ? undefined : { email, name: text(customer, 'name') };
}

export const stripeApi: ProviderApi & ProviderCustomerFetcher = {
  ...fetchingResources(PROVIDER, { [INVOICE_PAYMENT_RESOURCE]: fetchInvoicePayment }),
  fetchCustomer,
};
