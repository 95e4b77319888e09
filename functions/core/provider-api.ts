/**
 * The port through which the service reads what a provider's thin webhook event only names
 * (DESIGN §2, ports and adapters): one adapter per provider in functions/adapters/provider-api/.
 * A thin event's `fetch` names a resource (payment, refund, subscription, mandate …) by the name
 * the provider's webhook module gives it; the adapter fetches it and reduces it to a
 * FetchedResource, so domain code never sees a provider's JSON.
 */

/** The merchant's credential for the provider's API (`providers set-api-key`); never logged. */
export interface ProviderApiCredentials {
  readonly apiKey: string;
}

/** What a thin event names: the resource, by the name the psp's webhook module gives it, and its id. */
export interface ThinResource {
  readonly resource: string;
  readonly id: string;
}

/** The customer a fetched resource belongs to, as far as the provider tells. */
export interface FetchedOwner {
  readonly email?: string;
  readonly name?: string;
  readonly providerCustomerId?: string;
}

/** A provider's payment (or a chargeback, which fails one) reduced to what the ingest logic uses. */
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
  readonly customer: FetchedOwner;
  readonly subscriptionId?: string;
  readonly invoiceId?: string;
}

/** A refund: the amount given back and the payment it was given back on. */
export interface FetchedRefund {
  /** The refunded payment's id, as the provider's payment events name it. */
  readonly providerPaymentId: string;
  /** Minor units. */
  readonly amount: number;
  /** Lowercase ISO 4217. */
  readonly currency: string;
  readonly customer: FetchedOwner;
}

/** A subscription: whose it is and whether it has ended (cancelled, expired, terminated …). */
export interface FetchedSubscription {
  /** The id the provider's payments name the subscription by (what recoveries are filed under). */
  readonly subscriptionId: string;
  readonly ended: boolean;
  /** The recurring amount in minor units and its currency, when the provider gives them. */
  readonly amount?: number;
  readonly currency?: string;
  readonly customer: FetchedOwner;
}

/** A payment method (a mandate, a payment profile, billing info): only whose it is matters. */
export interface FetchedPaymentMethod {
  readonly customer: FetchedOwner;
}

/** A thin event's resource, reduced to what the ingest logic uses. */
export type FetchedResource =
  | { readonly kind: 'payment'; readonly payment: FetchedPayment }
  | { readonly kind: 'refund'; readonly refund: FetchedRefund }
  | { readonly kind: 'subscription'; readonly subscription: FetchedSubscription }
  | { readonly kind: 'payment_method'; readonly paymentMethod: FetchedPaymentMethod };

/** Fetches one kind of resource by its id. */
export type ResourceFetch = (credentials: ProviderApiCredentials, id: string) => Promise<FetchedResource>;

export interface ProviderApi {
  /** The resource names this adapter fetches (what the psp's webhook module puts in `fetch.resource`). */
  readonly resources: ReadonlySet<string>;
  /**
   * The resource a thin event names; `thin.resource` is one of `resources` (another is a
   * programming error). Throws ProviderApiError: `notFound` for a 404 (the event refers to nothing
   * the credential can see), `retryable` for a 5xx, a 429 or a timeout.
   */
  fetchResource(credentials: ProviderApiCredentials, thin: ThinResource): Promise<FetchedResource>;
  /**
   * The customer with the provider's id `providerCustomerId` (optional per adapter): its email and
   * name, or undefined when the provider holds no email for it. Throws ProviderApiError as
   * fetchResource does (`notFound` for a 404, `retryable` for a 5xx, a 429 or a timeout).
   */
  fetchCustomer?(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined>;
}

/**
 * `resources` and `fetchResource` of an adapter from one fetch per resource name, so an adapter
 * states each resource it fetches once.
 */
export function fetchingResources(provider: string, fetches: Readonly<Record<string, ResourceFetch>>): Pick<ProviderApi, 'resources' | 'fetchResource'> {
  return {
    resources: new Set(Object.keys(fetches)),
    fetchResource: async (credentials, { resource, id }) => {
      const fetch = Object.hasOwn(fetches, resource) ? fetches[resource] : undefined;
      if (fetch === undefined) throw new Error(`the ${provider} API adapter fetches no "${resource}"`);
      return fetch(credentials, id);
    },
  };
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
 * A provider API call that did not return the resource. `unavailable` (5xx, 429, timeout,
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
