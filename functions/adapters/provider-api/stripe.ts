import Stripe from 'stripe';
import { type FetchedCustomer, type ProviderApiCredentials, ProviderApiError, type ProviderCustomerFetcher } from '../../core/provider-api';
import { text } from '../../webhooks/json-payload';
import { baseUrlOf, PROVIDER_API_TIMEOUT_MS, providerApiErrorOfStatus } from './http';

/**
 * Stripe's API through the official `stripe` SDK (https://docs.stripe.com/api/customers/retrieve),
 * with the merchant's secret or restricted key (`sk_…` / `rk_…`, customer read access). Stripe's
 * payment events name the customer (`cus_…`) but often carry no email (a PaymentIntent's
 * `receipt_email` and the card's billing email are optional): `GET /v1/customers/{id}` answers the
 * customer with `email` and `name`, or, for a deleted customer, `{ id, object, deleted: true }`,
 * which holds no email. Only the customer lookup is implemented.
 *
 * The SDK is pointed at STRIPE_API_BASE_URL (read at each call; its `host`, `port` and `protocol`
 * options), so tests reach a loopback fake. Set deliberately: `maxNetworkRetries: 0` (the SDK
 * would retry 5xx, 429 and network errors twice, with waits, inside one Lambda run; the queue's
 * redelivery is the service's retry), `timeout` PROVIDER_API_TIMEOUT_MS (the SDK waits 80 s by
 * default) and `telemetry: false` (no timings of earlier requests in request headers).
 */
const PROVIDER = 'stripe';

/**
 * The `stripe` SDK client for a merchant's key, set up as described above (STRIPE_API_BASE_URL
 * read now, no SDK retries, PROVIDER_API_TIMEOUT_MS, no telemetry). The one place the client is
 * built: the Stripe payment gateway (adapters/payment-gateways/stripe.ts) uses it too.
 */
export function stripeClientFor(credentials: ProviderApiCredentials): Stripe {
  const origin = new URL(baseUrlOf('STRIPE_API_BASE_URL'));
  const protocol = origin.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(credentials.apiKey, {
    host: origin.hostname,
    port: origin.port === '' ? (protocol === 'http' ? 80 : 443) : origin.port,
    protocol,
    maxNetworkRetries: 0,
    timeout: PROVIDER_API_TIMEOUT_MS,
    telemetry: false,
  });
}

/** The SDK's error as a ProviderApiError: no answer (network, timeout) → unavailable; else by the answer's status. */
function providerApiErrorOf(error: unknown): ProviderApiError {
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return new ProviderApiError(PROVIDER, 'unavailable', `no answer within ${PROVIDER_API_TIMEOUT_MS} ms or the request failed before an answer`, { cause: error });
  }
  if (error instanceof Stripe.errors.StripeError && typeof error.statusCode === 'number') return providerApiErrorOfStatus(PROVIDER, error.statusCode, { cause: error });
  return new ProviderApiError(PROVIDER, 'bad_response', 'answered with something that is not a customer', { cause: error });
}

/** `GET /v1/customers/{id}`: `email` and `name`; undefined for a deleted customer or one without email. */
async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  let customer: Stripe.Customer | Stripe.DeletedCustomer;
  try {
    customer = await stripeClientFor(credentials).customers.retrieve(providerCustomerId);
  } catch (error) {
    throw providerApiErrorOf(error);
  }
  if (customer.deleted === true) return undefined;
  const email = text(customer, 'email');
  return email === undefined ? undefined : { email, name: text(customer, 'name') };
}

export const stripeApi: ProviderCustomerFetcher = { fetchCustomer };
