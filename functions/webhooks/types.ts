import type { CardExpiry } from '#core/customers';
import type { Psp } from '#core/providers';

/**
 * The contract of one provider's webhook module (functions/webhooks/<psp>.ts): verify a request
 * with the provider's own scheme, then normalise its body into the events the service uses.
 * Pure apart from what a scheme needs to fetch (PayPal's certificate), behind a port.
 */
export interface InboundWebhook {
  /** The body exactly as received: signatures are computed over these bytes. */
  readonly rawBody: Buffer;
  /** Header names lowercased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The public URL the provider posted to (scheme, host, path, query), for schemes that sign it. */
  readonly url: string;
}

/**
 * The merchant's secret for the provider, as the operator stored it (`providers set-secret`).
 * What it holds is each module's to document (a `whsec_` key, `public:private` keys, a hex HMAC
 * key, `username:password`, a webhook id ...).
 */
export interface WebhookCredentials {
  readonly secret: string;
}

export type Verification = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Signed timestamps older or newer than this are refused (replay protection). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/**
 * `upcoming_charge` (Stripe `invoice.upcoming`, Chargebee `subscription_renewal_reminder`) and
 * `card_expiry` (Stripe `customer.source.expiring`, Chargebee `card_expiry_reminder`: the card on
 * file's expiry, and nothing else) are no ingest event types: the consumer stores the first as an
 * upcoming charge for the pre-dunning task and the second on the customer; the others go through
 * the ingest logic.
 */
export const NORMALISED_EVENT_TYPES = [
  'payment_failed',
  'payment_succeeded',
  'payment_method_updated',
  'subscription_cancelled',
  'charge_refunded',
  'upcoming_charge',
  'card_expiry',
] as const;
export type NormalisedEventType = (typeof NORMALISED_EVENT_TYPES)[number];

export interface NormalisedWebhookEvent {
  readonly psp: Psp;
  /** The provider's id of this event (or a stable digest of it): redeliveries carry the same. */
  readonly providerEventId: string;
  readonly type: NormalisedEventType;
  readonly occurredAt?: string;
  readonly payment?: {
    readonly providerPaymentId?: string;
    /**
     * The provider's charge id when the payment is recorded under another id (Stripe: the charge
     * `ch_…` of a PaymentIntent `pi_…`), so GET /payments/{id} finds the payment by either.
     */
    readonly providerChargeId?: string;
    /** Minor units, whatever the provider sends. */
    readonly amount?: number;
    /** Lowercase ISO 4217. */
    readonly currency?: string;
    readonly declineCode?: string;
    readonly networkCode?: string;
    readonly network?: string;
    readonly adviceCode?: string;
    readonly invoiceId?: string;
    readonly subscriptionId?: string;
  };
  readonly customer?: {
    readonly email?: string;
    readonly name?: string;
    readonly providerCustomerId?: string;
  };
  /**
   * The expiry of the customer's card on file when the event carries the card (Stripe's
   * `payment_method_details.card`, Chargebee's `card`): kept on the customer, newest wins. On a
   * payment_method_updated, null means the new payment method has no card expiry (cleared).
   */
  readonly cardExpiry?: CardExpiry | null;
  /** When an `upcoming_charge` will be charged (ISO 8601). */
  readonly dueAt?: string;
  /** Thin events carry only an id: the details must be fetched from the provider's API. */
  readonly fetch?: { readonly resource: string; readonly id: string };
}

/** A body that verified but cannot be read as the provider documents it. */
export class WebhookPayloadError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'WebhookPayloadError';
  }
}

/**
 * A verified body that the provider's own format cannot parse at all (not JSON, not a JSON object,
 * not well-formed XML where the provider sends XML): the intake answers it 400 at once rather than
 * storing it for the dead-letter queue. Bodies that parse but lack what the provider documents stay
 * plain WebhookPayloadErrors (stored, then dead-lettered and redrivable once understood).
 */
export class WebhookBodyFormatError extends WebhookPayloadError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'WebhookBodyFormatError';
  }
}

export interface ProviderWebhook {
  readonly psp: Psp;
  /** Constant-time comparison for every signature; timestamps within TIMESTAMP_TOLERANCE_SECONDS where signed. */
  verify(request: InboundWebhook, credentials: WebhookCredentials, now: Date): Verification | Promise<Verification>;
  /** The events the service uses in a verified body; [] for events it does not use. */
  normalise(request: InboundWebhook): NormalisedWebhookEvent[];
}
