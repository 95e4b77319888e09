import { ProviderApiError } from '#core/provider-api';
import { type Env, env } from '#shared/env';
import { isObject, type JsonObject } from '#webhooks/json-payload';

/** Every provider API call gives up after this long (a retryable ProviderApiError). */
export const PROVIDER_API_TIMEOUT_MS = 5_000;

type BaseUrlVariable =
  | 'MOLLIE_API_BASE_URL'
  | 'GOCARDLESS_API_BASE_URL'
  | 'AUTHORIZE_NET_API_BASE_URL'
  | 'RECURLY_API_BASE_URL'
  | 'PADDLE_API_BASE_URL'
  | 'STRIPE_API_BASE_URL'
  | 'CHECKOUT_API_BASE_URL'
  | 'SQUARE_API_BASE_URL'
  | 'RAZORPAY_API_BASE_URL'
  | 'CHARGEBEE_API_BASE_URL'
  | 'BRAINTREE_API_BASE_URL';

/**
 * The provider's API origin, read at call time: `process.env[variable]` when set (so a test can
 * point the adapter at a loopback fake it started after the stack loaded), else the value
 * functions/shared/env.ts checked at start (its default: the provider's live API). A trailing
 * slash is dropped.
 */
export function baseUrlOf(variable: BaseUrlVariable): string {
  const configured = process.env[variable];
  const value = configured === undefined || configured === '' ? (env as Env)[variable] : configured;
  if (!URL.canParse(value)) throw new Error(`Invalid environment: ${variable} is not a URL`);
  return value.replace(/\/+$/, '');
}

/**
 * The ProviderApiError of a non-2xx answer: 404 → not_found, 401/403 → unauthorized, 429 and 5xx
 * → unavailable (retryable), any other → bad_response. The message names the status only. Also
 * for adapters that call through a provider's SDK, which report the status of the answer.
 */
export function providerApiErrorOfStatus(provider: string, status: number, options?: ErrorOptions): ProviderApiError {
  if (status === 404) return new ProviderApiError(provider, 'not_found', 'answered 404 (no such resource)', { ...options, status });
  if (status === 401 || status === 403)
    return new ProviderApiError(provider, 'unauthorized', `answered ${status} (the merchant's API key was refused)`, { ...options, status });
  if (status === 429 || status >= 500) return new ProviderApiError(provider, 'unavailable', `answered ${status}`, { ...options, status });
  return new ProviderApiError(provider, 'bad_response', `answered ${status}`, { ...options, status });
}

/**
 * GET `url` and return its JSON object body. Maps outcomes to ProviderApiError: 404 → not_found,
 * 401/403 → unauthorized, 429 and 5xx, timeouts and network errors → unavailable (retryable),
 * any other non-2xx or a body that is not a JSON object → bad_response. Error messages name the
 * status only: never the URL's credentials, headers or the body.
 */
export async function getJson(provider: string, url: string, headers: Readonly<Record<string, string>>): Promise<JsonObject> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(PROVIDER_API_TIMEOUT_MS) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new ProviderApiError(provider, 'unavailable', timedOut ? `no answer within ${PROVIDER_API_TIMEOUT_MS} ms` : 'request failed before an answer', {
      cause: error,
    });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw providerApiErrorOfStatus(provider, response.status);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new ProviderApiError(provider, 'bad_response', 'answered with a body that is not JSON', { cause: error, status: response.status });
  }
  if (!isObject(body)) throw new ProviderApiError(provider, 'bad_response', 'answered with a body that is not a JSON object', { status: response.status });
  return body;
}

/**
 * POST `body` as JSON to `url` and return the JSON object answered, with the same mapping of
 * statuses, timeouts and bodies to ProviderApiError as getJson. A byte order mark before the JSON
 * (Authorize.Net's API sends one) is dropped before parsing. Error messages never carry the
 * request body (it may hold credentials) nor the answer.
 */
export async function postJson(provider: string, url: string, body: unknown, headers: Readonly<Record<string, string>> = {}): Promise<JsonObject> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(PROVIDER_API_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new ProviderApiError(provider, 'unavailable', timedOut ? `no answer within ${PROVIDER_API_TIMEOUT_MS} ms` : 'request failed before an answer', {
      cause: error,
    });
  }
  const { status } = response;
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw providerApiErrorOfStatus(provider, status);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse((await response.text()).replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ProviderApiError(provider, 'bad_response', 'answered with a body that is not JSON', { cause: error, status });
  }
  if (!isObject(parsed)) throw new ProviderApiError(provider, 'bad_response', 'answered with a body that is not a JSON object', { status });
  return parsed;
}
