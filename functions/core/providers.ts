/** The 13 payment providers whose webhooks the service accepts (DESIGN §2b), by psp id. */
export const PSPS = [
  'stripe',
  'braintree',
  'adyen',
  'paypal',
  'checkout',
  'square',
  'authorize_net',
  'chargebee',
  'recurly',
  'paddle',
  'razorpay',
  'mollie',
  'gocardless',
] as const;
export type Psp = (typeof PSPS)[number];

export const isPsp = (value: string): value is Psp => (PSPS as readonly string[]).includes(value);
