import type { ProviderApiCredentials } from '#core/provider-api';
import { baseUrlOf, PROVIDER_API_TIMEOUT_MS } from './http';

/**
 * Stripe's REST API over plain `fetch` (https://docs.stripe.com/api): the few calls the service
 * makes (retrieve a customer, an invoice, a PaymentIntent; pay an invoice; confirm a
 * PaymentIntent) do not need the `stripe` SDK, which would be most of the bundle of every function
 * that calls Stripe (the every-minute job, the inbound-webhooks consumer). The wire format is the
 * SDK's, so the tests that drive the SDK against the same loopback fake check both:
 * - `Authorization: Bearer <key>` and `Stripe-Version` pinned to the version the installed SDK
 *   pins (STRIPE_API_VERSION), so that answers have the shape the code reads;
 * - parameters form-encoded as the SDK encodes them (`expand[0]=payments`, `off_session=true`;
 *   https://docs.stripe.com/api/expanding_objects), in the query string of a GET and the body of a
 *   POST;
 * - `Idempotency-Key` on the POSTs that charge (https://docs.stripe.com/api/idempotent_requests);
 * - no retries (the engine and the queues re-send later) and PROVIDER_API_TIMEOUT_MS per call;
 * - errors are Stripe's `{ error: { type, code, decline_code, ... } }`
 *   (https://docs.stripe.com/api/errors), thrown as StripeApiError with that object as `raw`; no
 *   answer at all is a StripeConnectionError.
 * The origin is STRIPE_API_BASE_URL, read at each call (a loopback fake in tests).
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';

type FormValue = string | number | boolean | null | undefined | readonly FormValue[] | { readonly [key: string]: FormValue };

/** Stripe's form encoding of nested parameters: `a[b]=1`, arrays by index (`expand[0]=x`), booleans as `true`/`false`. */
export function stripeForm(params: Readonly<Record<string, FormValue>>): URLSearchParams {
  const form = new URLSearchParams();
  const add = (name: string, value: FormValue): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      for (const [index, item] of (value as readonly FormValue[]).entries()) add(`${name}[${index}]`, item);
    } else if (typeof value === 'object') for (const [key, inner] of Object.entries(value)) add(`${name}[${key}]`, inner);
    else form.append(name, String(value));
  };
  for (const [key, value] of Object.entries(params)) add(key, value);
  return form;
}

/** An answer of Stripe's other than 2xx: its status and its `error` object (`raw`: type, code, decline_code, ...). */
export class StripeApiError extends Error {
  readonly status: number;
  readonly raw: Readonly<Record<string, unknown>>;
  constructor(status: number, raw: Readonly<Record<string, unknown>>) {
    super(typeof raw.message === 'string' ? raw.message : `Stripe answered ${status}`);
    this.name = 'StripeApiError';
    this.status = status;
    this.raw = raw;
  }
  /** `card_error`, `invalid_request_error`, `idempotency_error`, `api_error`, ... */
  get type(): string {
    return typeof this.raw.type === 'string' ? this.raw.type : 'api_error';
  }
  get code(): string | undefined {
    return typeof this.raw.code === 'string' ? this.raw.code : undefined;
  }
}

/** No answer from Stripe: the connection failed or PROVIDER_API_TIMEOUT_MS passed. */
export class StripeConnectionError extends Error {
  constructor(options?: ErrorOptions) {
    super(`Stripe gave no answer within ${PROVIDER_API_TIMEOUT_MS} ms or the connection failed`, options);
    this.name = 'StripeConnectionError';
  }
}

export interface StripeClient {
  get<T>(path: string, params?: Readonly<Record<string, FormValue>>): Promise<T>;
  post<T>(path: string, params: Readonly<Record<string, FormValue>>, options?: { readonly idempotencyKey?: string }): Promise<T>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

async function send<T>(apiKey: string, method: 'GET' | 'POST', path: string, form: URLSearchParams, idempotencyKey?: string): Promise<T> {
  const query = method === 'GET' && form.size > 0 ? `?${form}` : '';
  let response: Response;
  try {
    response = await fetch(`${baseUrlOf('STRIPE_API_BASE_URL')}${path}${query}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        'stripe-version': STRIPE_API_VERSION,
        accept: 'application/json',
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
      },
      ...(method === 'POST' ? { body: form.toString() } : {}),
      signal: AbortSignal.timeout(PROVIDER_API_TIMEOUT_MS),
    });
  } catch (error) {
    throw new StripeConnectionError({ cause: error });
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (!response.ok) throw new StripeApiError(response.status, isRecord(body) && isRecord(body.error) ? body.error : { type: 'api_error' });
  if (!isRecord(body)) throw new StripeApiError(response.status, { type: 'api_error', message: 'Stripe answered with a body that is not a JSON object' });
  return body as T;
}

/** A client for one merchant's key (see the module comment). */
export function stripeClientFor(credentials: ProviderApiCredentials): StripeClient {
  return {
    get: (path, params = {}) => send(credentials.apiKey, 'GET', path, stripeForm(params)),
    post: (path, params, options = {}) => send(credentials.apiKey, 'POST', path, stripeForm(params), options.idempotencyKey),
  };
}
