import { type FetchedCustomer, type ProviderApiCredentials, ProviderApiError, type ProviderCustomerFetcher } from '#core/provider-api';
import { joinName, text } from '#webhooks/json-payload';
import { baseUrlOf, PROVIDER_API_TIMEOUT_MS, providerApiErrorOfStatus } from './http';

/**
 * Braintree's gateway API through the official `braintree` SDK
 * (https://developer.paypal.com/braintree/docs/reference/request/customer/find/node):
 * `gateway.customer.find(id)` is `GET /merchants/{merchant_id}/customers/{id}` (XML, HTTP Basic
 * with the public and private keys) and resolves the customer's `email`, `firstName`, `lastName`,
 * `company`. Subscription notifications name the transaction's customer but may carry no email.
 *
 * The merchant's API key is stored as `<merchant_id>:<public_key>:<private_key>` (all three from
 * the Control Panel's API page; the webhook secret is `<public_key>:<private_key>`). The SDK is
 * pointed at BRAINTREE_API_BASE_URL (read at each call) through
 * `new braintree.Environment(server, port, authUrl, ssl)`, whose server, port and scheme are the
 * SDK's whole idea of where the gateway is. Its timeout (60 s by default) is set to
 * PROVIDER_API_TIMEOUT_MS; it does not retry. Only the customer lookup is implemented.
 */
const PROVIDER = 'braintree';

/** The part of the SDK used here (it ships no type declarations). */
interface BraintreeCustomer {
  readonly email?: string | null;
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly company?: string | null;
}
interface BraintreeGateway {
  readonly config: { timeout: number };
  readonly customer: { find(customerId: string): Promise<BraintreeCustomer> };
}
interface BraintreeSdk {
  readonly BraintreeGateway: new (config: { environment: unknown; merchantId: string; publicKey: string; privateKey: string }) => BraintreeGateway;
  readonly Environment: new (server: string, port: string, authUrl: string, ssl: boolean) => unknown;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const braintree = require('braintree') as BraintreeSdk;

function keysOf(credentials: ProviderApiCredentials): { readonly merchantId: string; readonly publicKey: string; readonly privateKey: string } {
  const [merchantId = '', publicKey = '', privateKey = '', ...rest] = credentials.apiKey.split(':');
  if (merchantId === '' || publicKey === '' || privateKey === '' || rest.length > 0) {
    throw new ProviderApiError(PROVIDER, 'unauthorized', "the merchant's API key is not stored as <merchant_id>:<public_key>:<private_key>");
  }
  return { merchantId, publicKey, privateKey };
}

function gatewayFor(credentials: ProviderApiCredentials): BraintreeGateway {
  const origin = new URL(baseUrlOf('BRAINTREE_API_BASE_URL'));
  const ssl = origin.protocol === 'https:';
  const environment = new braintree.Environment(origin.hostname, origin.port === '' ? (ssl ? '443' : '80') : origin.port, origin.origin, ssl);
  const gateway = new braintree.BraintreeGateway({ environment, ...keysOf(credentials) });
  gateway.config.timeout = PROVIDER_API_TIMEOUT_MS;
  return gateway;
}

/** The HTTP status each of the SDK's error types stands for (lib/braintree/http.js, checkHttpStatus). */
const STATUS_OF_ERROR_TYPE: Readonly<Record<string, number>> = {
  authenticationError: 401,
  authorizationError: 403,
  notFoundError: 404,
  upgradeRequired: 426,
  tooManyRequestsError: 429,
  serverError: 500,
  serviceUnavailableError: 503,
  gatewayTimeoutError: 504,
};

/**
 * The SDK's error as a ProviderApiError. Its errors carry a `type`, not the status: a known type
 * is mapped by the status it stands for; `requestTimeoutError` (408), a timeout or a request that
 * failed before an answer (`unexpectedError`) is unavailable; an `unexpectedError` naming another
 * status, by that status; anything else (an answer that is not XML) is bad_response.
 */
function providerApiErrorOf(error: unknown): ProviderApiError {
  const type = error instanceof Error ? (error as Error & { type?: unknown }).type : undefined;
  const status = typeof type === 'string' ? STATUS_OF_ERROR_TYPE[type] : undefined;
  if (status !== undefined) return providerApiErrorOfStatus(PROVIDER, status, { cause: error });
  if (type === 'unexpectedError') {
    const answered = /^Unexpected HTTP response: (\d{3})$/.exec((error as Error).message)?.[1];
    if (answered !== undefined) return providerApiErrorOfStatus(PROVIDER, Number(answered), { cause: error });
  }
  if (type === 'requestTimeoutError' || type === 'unexpectedError') {
    return new ProviderApiError(PROVIDER, 'unavailable', `no answer within ${PROVIDER_API_TIMEOUT_MS} ms or the request failed before an answer`, {
      cause: error,
    });
  }
  return new ProviderApiError(PROVIDER, 'bad_response', 'answered with something that is not a customer', { cause: error });
}

async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const gateway = gatewayFor(credentials);
  let customer: BraintreeCustomer;
  try {
    customer = await gateway.customer.find(providerCustomerId);
  } catch (error) {
    throw providerApiErrorOf(error);
  }
  const email = text(customer, 'email');
  if (email === undefined) return undefined;
  return { email, name: joinName(text(customer, 'firstName'), text(customer, 'lastName')) ?? text(customer, 'company') };
}

export const braintreeApi: ProviderCustomerFetcher = { fetchCustomer };
