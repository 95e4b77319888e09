import type { ProviderApi, ProviderCustomerFetcher } from '#core/provider-api';
import type { Psp } from '#core/providers';
import { authorizeNetApi } from './authorize-net';
import { braintreeApi } from './braintree';
import { chargebeeApi } from './chargebee';
import { checkoutApi } from './checkout';
import { gocardlessApi } from './gocardless';
import { mollieApi } from './mollie';
import { paddleApi } from './paddle';
import { razorpayApi } from './razorpay';
import { recurlyApi } from './recurly';
import { squareApi } from './square';
import { stripeApi } from './stripe';

/**
 * The provider API adapters by psp, for the providers whose webhooks are thin: each adapter lists
 * the resources it fetches (`resources`), by the names the psp's webhook module gives them in
 * `fetch.resource`, and those are every resource the modules emit:
 * - Mollie: `payment` (classic `id=tr_…` webhooks, next-gen "simple" payment events),
 *   `chargeback` and `refund` (next-gen "simple" events, fetched under their payment);
 * - GoCardless: `payment`, `mandate`, `subscription`, `refund`;
 * - Authorize.Net: `transaction`, `subscription` (ARB), `customerPaymentProfile` (CIM);
 * - Recurly: `transaction`, `subscription`, `account`;
 * - Stripe: `invoice_payment` (the PaymentIntent of a failed invoice whose event names no payment,
 *   as since API version 2025-03-31.basil; fetched by invoice id through the stripe SDK).
 */
const ADAPTERS: Partial<Record<Psp, ProviderApi>> = {
  mollie: mollieApi,
  gocardless: gocardlessApi,
  authorize_net: authorizeNetApi,
  recurly: recurlyApi,
  stripe: stripeApi,
};

/**
 * The adapter that fetches `resource` for `psp`, or undefined when none does (a webhook module
 * naming a resource no adapter fetches: a programming error).
 */
export function providerApiFor(psp: Psp, resource: string): ProviderApi | undefined {
  const api = ADAPTERS[psp];
  return api?.resources.has(resource) === true ? api : undefined;
}

/**
 * The adapters that look a customer up by the provider's customer id, for failed payments whose
 * event carries no email and whose customer is unknown here: Paddle (`GET /customers/ctm_…`),
 * Mollie (`GET /v2/customers/cst_…`), GoCardless (`GET /customers/CU…`), Recurly
 * (`GET /accounts/code-…`) and Authorize.Net (getCustomerProfileRequest); Stripe
 * (`GET /v1/customers/cus_…`, through the stripe SDK), Checkout.com (`GET /customers/cus_…`),
 * Square (`GET /v2/customers/{id}`), Razorpay (`GET /v1/customers/cust_…`), Chargebee
 * (`GET /api/v2/customers/{id}` on the key's site) and Braintree (`customer.find`, through the
 * braintree SDK).
 */
const CUSTOMER_FETCHERS: Partial<Record<Psp, ProviderCustomerFetcher>> = {
  paddle: paddleApi,
  mollie: mollieApi,
  gocardless: gocardlessApi,
  recurly: recurlyApi,
  authorize_net: authorizeNetApi,
  stripe: stripeApi,
  checkout: checkoutApi,
  square: squareApi,
  razorpay: razorpayApi,
  chargebee: chargebeeApi,
  braintree: braintreeApi,
};

/** The adapter that looks up `psp`'s customers, or undefined when the service cannot yet. */
export function customerFetcherFor(psp: Psp): ProviderCustomerFetcher | undefined {
  return CUSTOMER_FETCHERS[psp];
}
