/**
 * The port through which the retry engine charges a failed payment again (DESIGN §2, ports and
 * adapters): one adapter per gateway in functions/adapters/payment-gateways/, chosen per merchant
 * and provider by configuration (`gateways set`). Domain code sees GatewayOutcome, never a
 * provider's JSON.
 */

export const GATEWAY_NAMES = ['sandbox', 'stripe'] as const;
export type GatewayName = (typeof GATEWAY_NAMES)[number];
export const isGatewayName = (value: string): value is GatewayName => (GATEWAY_NAMES as readonly string[]).includes(value);

/** One attempt to collect a failed payment again. */
export interface GatewayChargeRequest {
  readonly merchantId: string;
  readonly paymentId: string;
  readonly psp: string;
  /** The provider's id of the failed charge (a Stripe PaymentIntent `pi_…`, for instance). */
  readonly providerPaymentId: string | null;
  /** The provider's open invoice the failed charge belongs to, when there is one (Stripe `in_…`). */
  readonly invoiceId: string | null;
  /** Minor units. */
  readonly amount: number;
  /** Lowercase ISO 4217. */
  readonly currency: string;
  /** The decline code the payment holds now (the sandbox's scenarios are keyed by it). */
  readonly declineCode: string | null;
  /** 1 for the first retry. */
  readonly attemptNumber: number;
  /**
   * Derived from the payment and the attempt number and stored with the attempt before the call:
   * re-sending the same attempt after a crash sends the same key, so the provider deduplicates it;
   * the next attempt has a key of its own.
   */
  readonly idempotencyKey: string;
}

/** The gateway's answer to one attempt. */
export type GatewayOutcome =
  | { readonly status: 'succeeded'; readonly providerChargeId: string }
  | {
      readonly status: 'declined';
      readonly declineCode: string;
      readonly networkCode?: string;
      readonly network?: string;
      readonly adviceCode?: string;
      readonly providerChargeId?: string;
    };

/** The merchant's credential for the provider's API (`providers set-api-key`); never logged. */
export interface GatewayCredentials {
  readonly apiKey: string;
}

export interface PaymentGateway {
  readonly name: GatewayName;
  /** Whether the gateway needs the merchant's API key for the provider. */
  readonly needsApiKey: boolean;
  /**
   * Charges once per idempotency key. A decline is an outcome, not an error. Throws GatewayError
   * when the gateway could not tell (5xx, 429, timeout, network) or refused the request itself
   * (bad credentials): the attempt does not count as a customer attempt and is retried later.
   */
  charge(request: GatewayChargeRequest, credentials: GatewayCredentials | undefined): Promise<GatewayOutcome>;
}

/** A gateway call that gave no answer about the customer's card (see PaymentGateway.charge). */
export class GatewayError extends Error {
  constructor(gateway: string, message: string, options?: ErrorOptions) {
    super(`${gateway} gateway: ${message}`, options);
    this.name = 'GatewayError';
  }
}

/** What every attempt key of a payment starts with. */
export const attemptIdempotencyKeyPrefix = (paymentId: string): string => `retry-${paymentId}-`;

/**
 * The idempotency key of attempt `attemptNumber` of a payment: fixed by the payment and the
 * number, nothing else (not the time, not a counter read at call time), so every re-send of the
 * attempt, after a crash or a gateway error, carries the same key, and the next attempt another.
 */
export const attemptIdempotencyKey = (paymentId: string, attemptNumber: number): string => `${attemptIdempotencyKeyPrefix(paymentId)}${attemptNumber}`;
