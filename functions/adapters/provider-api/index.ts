import type { ProviderApi, ProviderCustomerFetcher } from '../../core/provider-api';
import type { Psp } from '../../core/providers';
import { authorizeNetApi } from './authorize-net';
import { gocardlessApi } from './gocardless';
import { mollieApi } from './mollie';
import { paddleApi } from './paddle';
import { recurlyApi } from './recurly';

/**
 * The provider API adapters by psp, for the thin webhook events the service can fetch:
 * Mollie payments (classic `id=tr_…` webhooks and next-gen "simple" payment events), GoCardless
 * payments, Authorize.Net transactions (getTransactionDetails; also the transaction a failed ARB
 * subscription event names) and thin Recurly transactions. Providers and resources not listed
 * here still end in the DLQ with ProviderFetchNotImplementedError.
 */
const ADAPTERS: Partial<Record<Psp, { readonly api: ProviderApi; readonly resources: ReadonlySet<string> }>> = {
  mollie: { api: mollieApi, resources: new Set(['payment']) },
  gocardless: { api: gocardlessApi, resources: new Set(['payment']) },
  authorize_net: { api: authorizeNetApi, resources: new Set(['transaction']) },
  recurly: { api: recurlyApi, resources: new Set(['transaction']) },
};

/** The adapter that fetches `resource` for `psp`, or undefined when the service cannot fetch it yet. */
export function providerApiFor(psp: Psp, resource: string): ProviderApi | undefined {
  const adapter = ADAPTERS[psp];
  return adapter !== undefined && adapter.resources.has(resource) ? adapter.api : undefined;
}

/**
 * The adapters that look a customer up by the provider's customer id, for failed payments whose
 * event carries no email and whose customer is unknown here: Paddle (`GET /customers/ctm_…`) and
 * Mollie (`GET /v2/customers/cst_…`).
 */
const CUSTOMER_FETCHERS: Partial<Record<Psp, ProviderCustomerFetcher>> = {
  paddle: paddleApi,
  mollie: mollieApi,
};

/** The adapter that looks up `psp`'s customers, or undefined when the service cannot yet. */
export function customerFetcherFor(psp: Psp): ProviderCustomerFetcher | undefined {
  return CUSTOMER_FETCHERS[psp];
}
