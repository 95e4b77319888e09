import type Stripe from 'stripe';
import { type GatewayChargeRequest, type GatewayCredentials, GatewayError, type GatewayOutcome, type PaymentGateway } from '#core/payment-gateway';
import { at, listAt, text } from '#webhooks/json-payload';
import { PROVIDER_API_TIMEOUT_MS } from '#adapters/provider-api/http';
import { StripeApiError, type StripeClient, StripeConnectionError, stripeClientFor } from '#adapters/provider-api/stripe-http';

/**
 * The Stripe payment gateway: retries a failed Stripe payment through Stripe's REST API with the
 * merchant's secret or restricted key (`providers set-api-key`; write access to invoices and
 * PaymentIntents). The client is adapters/provider-api/stripe-http.ts (plain HTTP, the SDK's wire
 * format and pinned API version): pointed at STRIPE_API_BASE_URL (a loopback fake in tests), no
 * retries (the engine re-sends the attempt later, with the same key), PROVIDER_API_TIMEOUT_MS.
 *
 * What it calls, by what the payment holds:
 * 1. An open invoice (`invoice_id` `in_…`, a subscription's, most failed Stripe payments):
 *    `POST /v1/invoices/{id}/pay` (https://docs.stripe.com/api/invoices/pay) with
 *    `expand[]=payments` and no other parameter: Stripe charges the invoice's (or the customer's)
 *    default payment method, off-session (the default). Paid → the InvoicePayment's charge or
 *    PaymentIntent id (since API 2025-03-31 the invoice has no `charge`/`payment_intent`; older
 *    versions' fields are read first), else the invoice id.
 * 2. Else a PaymentIntent (`provider_payment_id` `pi_…`): `GET /v1/payment_intents/{id}` first,
 *    then `POST /v1/payment_intents/{id}/confirm` (https://docs.stripe.com/api/payment_intents/confirm)
 *    with `off_session=true` (a merchant-initiated retry: the customer is not there to
 *    authenticate) and `payment_method`: a failed PaymentIntent is back in
 *    `requires_payment_method` without one (https://docs.stripe.com/payments/paymentintents/lifecycle),
 *    so the one attached, else the customer's `invoice_settings.default_payment_method` (a card
 *    updated since the decline), else the card that failed (`last_payment_error.payment_method`).
 * 3. Else (a charge `ch_…`, or nothing): GatewayError: a Charge cannot be charged again; without
 *    an invoice or a PaymentIntent there is nothing Stripe can retry.
 *
 * Idempotency (https://docs.stripe.com/api/idempotent_requests): every pay and confirm carries
 * the attempt's key (`retry-<payment id>-<attempt>`, stored before the call). Stripe stores the
 * first answer of a key, errors included, and sends it again to the same request (header
 * `Idempotent-Replayed: true`), so a re-sent attempt charges at most once and reads the same
 * answer; the same key with other parameters is 400 `idempotency_error`. Keys are pruned once
 * 24 hours old: an attempt re-sent later runs again, and Stripe's answer for an invoice or intent
 * already paid is read by retrieving it (below). The parameters are fixed by the payment, so a
 * re-send sends the same ones (the one exception: a PaymentIntent whose customer changed their
 * default card between the first send and the re-send: `idempotency_error`, a GatewayError,
 * until the key is pruned).
 *
 * | Stripe's answer                                                      | GatewayOutcome / error                                      |
 * |----------------------------------------------------------------------|-------------------------------------------------------------|
 * | pay: 200, invoice `paid`                                             | succeeded (InvoicePayment charge / PaymentIntent id, else invoice id) |
 * | pay: 200, invoice not `paid` (an async payment still processing)     | retrieve: `paid` → succeeded, else GatewayError             |
 * | pay/confirm: 402 `card_error`                                        | declined: `decline_code`, else `code`; `network_decline_code` → networkCode; `network_advice_code`, else Stripe's `advice_code` → adviceCode; `payment_method.card.brand` (else the intent's failed card, else its charge's `payment_method_details.card.brand`) → network; `charge` → providerChargeId |
 * | 402 `authentication_required`, `invoice_payment_intent_requires_action`, `subscription_payment_intent_requires_action`, `payment_intent_action_required` | declined `authentication_required` (hard_customer: the customer must authenticate) |
 * | pay: 400 `invalid_request_error` ("Invoice is already paid"; Stripe gives it no code of its own) | retrieve the invoice: `paid` → succeeded, else GatewayError |
 * | confirm: 200 `succeeded`                                             | succeeded (`latest_charge`, else the PaymentIntent id)      |
 * | confirm: 200 `requires_action`                                       | declined `authentication_required`                          |
 * | confirm: 200 `requires_payment_method` with `last_payment_error`     | declined (mapped as a card error)                           |
 * | confirm: 400 `payment_intent_unexpected_state` (already succeeded, …) | retrieve the intent: `succeeded` → succeeded, `requires_action` → declined `authentication_required`, else GatewayError |
 * | intent found `succeeded` / `requires_action` before confirming       | succeeded / declined `authentication_required`, no confirm  |
 * | intent `processing`, `requires_capture`, `canceled`                  | GatewayError (no answer about the card yet, or none to come) |
 * | 400 `idempotency_error`                                              | GatewayError (the key was used with other parameters)       |
 * | 401 (key refused), 403 (key lacks permission)                        | GatewayError (the message names neither the key nor Stripe's message, which masks it) |
 * | 429, 5xx                                                             | GatewayError                                                |
 * | no answer within PROVIDER_API_TIMEOUT_MS, connection failed          | GatewayError                                                |
 * | 404, other 4xx                                                       | GatewayError                                                |
 *
 * A GatewayError is not an answer about the card: the engine does not count the attempt and
 * re-sends it later with the same key.
 */
const NAME = 'stripe';

type Declined = Extract<GatewayOutcome, { status: 'declined' }>;

/** Stripe's codes for "the customer must authenticate (3-D Secure) before the card is charged". */
const AUTHENTICATION_CODES: ReadonlySet<string> = new Set([
  'authentication_required',
  'invoice_payment_intent_requires_action',
  'subscription_payment_intent_requires_action',
  'payment_intent_action_required',
]);

/** The id of an expandable field: the string itself, or the expanded object's `id`. */
const idOf = (value: unknown): string | undefined => (typeof value === 'string' ? text(value) : text(value, 'id'));

/**
 * A decline from a card error: the `error` object of a 402 `card_error` answer, or a
 * PaymentIntent's `last_payment_error`, read by Stripe's field names.
 */
function declinedBy(error: unknown, intent?: unknown): Declined {
  const code = text(error, 'decline_code') ?? text(error, 'code') ?? 'generic_decline';
  const failedIntent = intent ?? at(error, 'payment_intent');
  const network =
    text(error, 'payment_method.card.brand') ??
    text(failedIntent, 'last_payment_error.payment_method.card.brand') ??
    text(failedIntent, 'latest_charge.payment_method_details.card.brand');
  const networkCode = text(error, 'network_decline_code');
  const adviceCode = text(error, 'network_advice_code') ?? text(error, 'advice_code');
  const providerChargeId = text(error, 'charge') ?? idOf(at(failedIntent, 'latest_charge')) ?? text(failedIntent, 'id');
  return {
    status: 'declined',
    declineCode: AUTHENTICATION_CODES.has(code) ? 'authentication_required' : code,
    ...(networkCode === undefined ? {} : { networkCode }),
    ...(adviceCode === undefined ? {} : { adviceCode }),
    ...(network === undefined ? {} : { network }),
    ...(providerChargeId === undefined ? {} : { providerChargeId }),
  };
}

const authenticationRequired = (intent: Stripe.PaymentIntent): Declined => ({
  status: 'declined',
  declineCode: 'authentication_required',
  providerChargeId: idOf(intent.latest_charge) ?? intent.id,
});

/** A 402 `card_error` answer: a decline (its `error` object is read by declinedBy). */
const isCardError = (error: unknown): error is StripeApiError => error instanceof StripeApiError && error.type === 'card_error';

/**
 * The GatewayError of an error that is no answer about the card. Names the status, Stripe's
 * error type and code, and Stripe's message except for 401/403 (it masks but quotes the key).
 */
function gatewayErrorOf(error: unknown, doing: string): GatewayError {
  if (error instanceof StripeConnectionError)
    return new GatewayError(NAME, `${doing}: no answer within ${PROVIDER_API_TIMEOUT_MS} ms or the connection failed`, { cause: error });
  if (!(error instanceof StripeApiError)) return new GatewayError(NAME, `${doing}: ${error instanceof Error ? error.name : 'unknown error'}`, { cause: error });
  const { status, code, type } = error;
  const named = `${status} ${type}${code === undefined ? '' : ` ${code}`}`;
  if (status === 401) return new GatewayError(NAME, `${doing}: Stripe refused the merchant's API key (${named})`, { cause: error });
  if (status === 403) return new GatewayError(NAME, `${doing}: the merchant's API key may not do this (${named})`, { cause: error });
  if (type === 'idempotency_error')
    return new GatewayError(NAME, `${doing}: Stripe refused the idempotency key, already used with other parameters (${named})`, { cause: error });
  return new GatewayError(NAME, `${doing}: Stripe answered ${named}: ${error.message}`, { cause: error });
}

/** The id the engine records for a paid invoice (see the module comment). */
function invoiceChargeId(invoice: Stripe.Invoice): string {
  const legacy = idOf(at(invoice, 'charge')) ?? idOf(at(invoice, 'payment_intent'));
  if (legacy !== undefined) return legacy;
  for (const payment of listAt(invoice, 'payments.data')) {
    if (text(payment, 'status') !== 'paid') continue;
    const id = idOf(at(payment, 'payment.charge')) ?? idOf(at(payment, 'payment.payment_intent'));
    if (id !== undefined) return id;
  }
  return invoice.id;
}

/** The invoice as it is now: paid → succeeded, else a GatewayError saying why pay did not settle it. */
async function invoiceAsItIs(client: StripeClient, invoiceId: string, why: string): Promise<GatewayOutcome> {
  let invoice: Stripe.Invoice;
  try {
    invoice = await client.get<Stripe.Invoice>(`/v1/invoices/${encodeURIComponent(invoiceId)}`, PAY_PARAMS);
  } catch (error) {
    throw gatewayErrorOf(error, `retrieving invoice ${invoiceId} after ${why}`);
  }
  if (invoice.status === 'paid') return { status: 'succeeded', providerChargeId: invoiceChargeId(invoice) };
  throw new GatewayError(NAME, `invoice ${invoiceId} is ${invoice.status ?? 'of no status'} after ${why}`);
}

/** The pay parameters: fixed, so every send of an attempt sends the same ones. */
const PAY_PARAMS = { expand: ['payments'] } as const;

async function payInvoice(client: StripeClient, invoiceId: string, idempotencyKey: string): Promise<GatewayOutcome> {
  let invoice: Stripe.Invoice;
  try {
    invoice = await client.post<Stripe.Invoice>(`/v1/invoices/${encodeURIComponent(invoiceId)}/pay`, PAY_PARAMS, { idempotencyKey });
  } catch (error) {
    if (isCardError(error)) return declinedBy(error.raw);
    // An invoice already paid (a re-send after the key was pruned, or paid elsewhere) is 400.
    if (error instanceof StripeApiError && error.type === 'invalid_request_error' && error.status === 400) {
      return invoiceAsItIs(client, invoiceId, `pay answered 400 ${error.code ?? error.type} (${error.message})`);
    }
    throw gatewayErrorOf(error, `paying invoice ${invoiceId}`);
  }
  if (invoice.status === 'paid') return { status: 'succeeded', providerChargeId: invoiceChargeId(invoice) };
  return invoiceAsItIs(client, invoiceId, `pay answered it ${invoice.status ?? 'of no status'}`);
}

async function retrieveIntent(client: StripeClient, intentId: string, doing: string): Promise<Stripe.PaymentIntent> {
  try {
    return await client.get<Stripe.PaymentIntent>(`/v1/payment_intents/${encodeURIComponent(intentId)}`);
  } catch (error) {
    throw gatewayErrorOf(error, `retrieving PaymentIntent ${intentId} ${doing}`);
  }
}

/** What an intent's status already answers without confirming it; undefined when it can be confirmed. */
function settledIntent(intent: Stripe.PaymentIntent): GatewayOutcome | undefined {
  switch (intent.status) {
    case 'succeeded':
      return { status: 'succeeded', providerChargeId: idOf(intent.latest_charge) ?? intent.id };
    case 'requires_action':
      return authenticationRequired(intent);
    case 'requires_payment_method':
    case 'requires_confirmation':
      return undefined;
    default:
      // processing (no answer yet), requires_capture (authorised, the merchant captures), canceled.
      throw new GatewayError(NAME, `PaymentIntent ${intent.id} is ${intent.status}: it cannot be confirmed again now`);
  }
}

/** The payment method to confirm with (see the module comment), or a GatewayError when there is none. */
async function paymentMethodFor(client: StripeClient, intent: Stripe.PaymentIntent): Promise<string> {
  const attached = idOf(intent.payment_method);
  if (attached !== undefined) return attached;
  const customerId = idOf(intent.customer);
  if (customerId !== undefined) {
    let customer: Stripe.Customer | Stripe.DeletedCustomer;
    try {
      customer = await client.get<Stripe.Customer | Stripe.DeletedCustomer>(`/v1/customers/${encodeURIComponent(customerId)}`);
    } catch (error) {
      throw gatewayErrorOf(error, `retrieving customer ${customerId} of PaymentIntent ${intent.id}`);
    }
    const preferred = customer.deleted === true ? undefined : idOf(customer.invoice_settings?.default_payment_method);
    if (preferred !== undefined) return preferred;
  }
  const failed = idOf(intent.last_payment_error?.payment_method);
  if (failed !== undefined) return failed;
  throw new GatewayError(NAME, `PaymentIntent ${intent.id} has no payment method to charge: none attached, no customer default, no failed one`);
}

/** The outcome of a confirm that answered 200. */
function confirmedOutcome(intent: Stripe.PaymentIntent): GatewayOutcome {
  if (intent.status === 'succeeded') return { status: 'succeeded', providerChargeId: idOf(intent.latest_charge) ?? intent.id };
  if (intent.status === 'requires_action') return authenticationRequired(intent);
  if (intent.status === 'requires_payment_method' && intent.last_payment_error !== null) return declinedBy(intent.last_payment_error, intent);
  throw new GatewayError(NAME, `confirming PaymentIntent ${intent.id} left it ${intent.status}`);
}

async function confirmIntent(client: StripeClient, intentId: string, idempotencyKey: string): Promise<GatewayOutcome> {
  const intent = await retrieveIntent(client, intentId, 'before confirming it');
  const settled = settledIntent(intent);
  if (settled !== undefined) return settled;
  const params = { payment_method: await paymentMethodFor(client, intent), off_session: true };
  let confirmed: Stripe.PaymentIntent;
  try {
    confirmed = await client.post<Stripe.PaymentIntent>(`/v1/payment_intents/${encodeURIComponent(intentId)}/confirm`, params, { idempotencyKey });
  } catch (error) {
    if (isCardError(error)) return declinedBy(error.raw);
    // Confirmed meanwhile (a re-send after the key was pruned, or paid by the customer): read it.
    if (error instanceof StripeApiError && error.code === 'payment_intent_unexpected_state') {
      const now = await retrieveIntent(client, intentId, 'after confirm answered payment_intent_unexpected_state');
      const outcome = settledIntent(now);
      if (outcome !== undefined) return outcome;
      throw new GatewayError(NAME, `confirming PaymentIntent ${intentId}: Stripe answered payment_intent_unexpected_state and it is ${now.status}`, {
        cause: error,
      });
    }
    throw gatewayErrorOf(error, `confirming PaymentIntent ${intentId}`);
  }
  return confirmedOutcome(confirmed);
}

async function charge(request: GatewayChargeRequest, credentials: GatewayCredentials | undefined): Promise<GatewayOutcome> {
  if (credentials === undefined) throw new GatewayError(NAME, "the merchant's Stripe API key is needed (providers set-api-key)");
  const client = stripeClientFor(credentials);
  if (request.invoiceId?.startsWith('in_')) return payInvoice(client, request.invoiceId, request.idempotencyKey);
  if (request.providerPaymentId?.startsWith('pi_')) return confirmIntent(client, request.providerPaymentId, request.idempotencyKey);
  throw new GatewayError(
    NAME,
    `payment ${request.paymentId} cannot be retried through Stripe: it has no invoice (in_…) and ${request.providerPaymentId === null ? 'no provider payment id' : `its provider payment id ${request.providerPaymentId} is not a PaymentIntent (pi_…)`}; a Charge cannot be charged again`,
  );
}

export const stripeGateway: PaymentGateway = { name: 'stripe', needsApiKey: true, charge };
