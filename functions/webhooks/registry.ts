import type { Psp } from '#core/providers';
import { adyenWebhook } from './adyen';
import { authorizeNetWebhook } from './authorize-net';
import { braintreeWebhook } from './braintree';
import { chargebeeWebhook } from './chargebee';
import { checkoutWebhook } from './checkout';
import { gocardlessWebhook } from './gocardless';
import { mollieWebhook } from './mollie';
import { paddleWebhook } from './paddle';
import { paypalWebhook } from './paypal';
import { razorpayWebhook } from './razorpay';
import { recurlyWebhook } from './recurly';
import { squareWebhook } from './square';
import { stripeWebhook } from './stripe';
import type { ProviderWebhook } from './types';

/**
 * The webhook module of each provider, as the intake and the inbound consumer use them. The
 * defaults are the production modules (PayPal's fetches certificates from PayPal's own hosts only).
 *
 * Only PayPal's can be replaced, and only in-process (no configuration reaches it): the local
 * stack's tests register a module built by `createPaypalWebhook` with a certificate fetcher that
 * serves a test certificate, since PayPal signs with a key whose certificate lives on PayPal.
 */
const DEFAULTS: Readonly<Record<Psp, ProviderWebhook>> = {
  stripe: stripeWebhook,
  braintree: braintreeWebhook,
  adyen: adyenWebhook,
  paypal: paypalWebhook,
  checkout: checkoutWebhook,
  square: squareWebhook,
  authorize_net: authorizeNetWebhook,
  chargebee: chargebeeWebhook,
  recurly: recurlyWebhook,
  paddle: paddleWebhook,
  razorpay: razorpayWebhook,
  mollie: mollieWebhook,
  gocardless: gocardlessWebhook,
};

// A global symbol rather than a module variable, so that every copy of this module in the process
// (the test's and the lazily imported handler's) sees the same override.
const PAYPAL_OVERRIDE_KEY = Symbol.for('recovery-service.paypal-webhook-override');
type OverrideHolder = { [PAYPAL_OVERRIDE_KEY]?: ProviderWebhook };

/** The module that verifies and normalises `psp`'s webhooks. */
export function webhookModuleFor(psp: Psp): ProviderWebhook {
  if (psp === 'paypal') return (globalThis as OverrideHolder)[PAYPAL_OVERRIDE_KEY] ?? DEFAULTS.paypal;
  return DEFAULTS[psp];
}

/**
 * Replaces the PayPal module in this process (tests and the local stack only); `undefined`
 * restores the production module.
 *
 * @example registerPaypalWebhookModule(createPaypalWebhook({ fetchCertificate: async () => testCertPem }));
 */
export function registerPaypalWebhookModule(module: ProviderWebhook | undefined): void {
  if (module !== undefined && module.psp !== 'paypal') throw new Error(`registerPaypalWebhookModule takes a paypal module, not ${module.psp}`);
  (globalThis as OverrideHolder)[PAYPAL_OVERRIDE_KEY] = module;
}
