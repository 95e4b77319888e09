/**
 * The port through which the service reads what a provider's thin webhook event only names
 * (DESIGN §2, ports and adapters): one adapter per provider in functions/adapters/provider-api/.
 * Domain code sees FetchedPayment, never a provider's JSON.
 */

/** The merchant's credential for the provider's API (`providers set-api-key`); never logged. */
export interface ProviderApiCredentials {
  readonly apiKey: string;
}

/** A provider's payment reduced to what the ingest logic uses. */
export interface FetchedPayment {
  /**
   * failed: the charge failed (a recovery may start); succeeded: it was collected;
   * refunded: it was collected and (partly) given back; other: still open, pending, cancelled …
   * (nothing to record).
   */
  readonly status: 'failed' | 'succeeded' | 'refunded' | 'other';
  readonly providerPaymentId: string;
  /** Minor units. */
  readonly amount: number;
  /** Lowercase ISO 4217. */
  readonly currency: string;
  readonly declineCode?: string;
  readonly customer: {
    readonly email?: string;
    readonly name?: string;
    readonly providerCustomerId?: string;
  };
  readonly subscriptionId?: string;
  readonly invoiceId?: string;
}

export interface ProviderApi {
  /**
   * The payment with the provider's id `id`. Throws ProviderApiError: `notFound` for a 404 (the
   * event refers to nothing the credential can see), `retryable` for a 5xx, a 429 or a timeout.
   */
  fetchPayment(credentials: ProviderApiCredentials, id: string): Promise<FetchedPayment>;
  /**
   * The customer with the provider's id `providerCustomerId` (optional per adapter): its email and
   * name, or undefined when the provider holds no email for it. Throws ProviderApiError as
   * fetchPayment does (`notFound` for a 404, `retryable` for a 5xx, a 429 or a timeout).
   */
  fetchCustomer?(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined>;
}

/** A provider's customer reduced to what the ingest logic uses. */
export interface FetchedCustomer {
  readonly email?: string;
  readonly name?: string;
}

/** An adapter that can look a customer up (some providers' adapters do only that). */
export type ProviderCustomerFetcher = Required<Pick<ProviderApi, 'fetchCustomer'>>;

export type ProviderApiFailure = 'not_found' | 'unavailable' | 'unauthorized' | 'bad_response';

/**
 * A provider API call that did not return the payment. `unavailable` (5xx, 429, timeout,
 * network) is retryable: the message is redelivered. `not_found` (404) means the event names
 * nothing: the consumer logs and drops it. `unauthorized` (401/403) and `bad_response` (another
 * status, a body that is not what the provider documents) fail until the DLQ.
 */
export class ProviderApiError extends Error {
  readonly failure: ProviderApiFailure;
  readonly status: number | undefined;

  constructor(provider: string, failure: ProviderApiFailure, message: string, options?: ErrorOptions & { status?: number }) {
    super(`${provider} API: ${message}`, options);
    this.name = 'ProviderApiError';
    this.failure = failure;
    this.status = options?.status;
  }

  get retryable(): boolean {
    return this.failure === 'unavailable';
  }

  get notFound(): boolean {
    return this.failure === 'not_found';
  }
}
