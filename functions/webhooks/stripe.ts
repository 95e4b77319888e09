import { type CardExpiry, cardExpiryOf } from '#core/customers';
import { headerOf, hmacHex, safeEqualAny, withinTolerance } from './crypto';
import {
  type JsonObject,
  at,
  isObject,
  isoFromUnixSeconds,
  minorAmount,
  normalisedEvent,
  objectAt,
  parseJsonObject,
  requiredObject,
  requiredText,
  text,
} from './json-payload';
import {
  type InboundWebhook,
  type NormalisedEventType,
  type NormalisedWebhookEvent,
  type ProviderWebhook,
  TIMESTAMP_TOLERANCE_SECONDS,
  type Verification,
  type WebhookCredentials,
} from './types';

/**
 * Stripe webhooks (docs.stripe.com/webhooks/signatures; stripe-node `src/Webhooks.ts`).
 *
 * **credentials.secret** holds the endpoint's signing secret exactly as the Dashboard shows it,
 * `whsec_...`, used as UTF-8 text (not base64-decoded).
 *
 * Verification: `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]`; HMAC-SHA256 of
 * `${t}.${rawBody}`, lowercase hex; any one v1 may match (secret rotation). Unlike the SDK, a `t`
 * in the future is refused too: ±TIMESTAMP_TOLERANCE_SECONDS around `now`.
 *
 * **One charge, one payment id.** A failed renewal arrives as three events, `invoice.payment_failed`,
 * `payment_intent.payment_failed` and `charge.failed`, and ingest deduplicates failures by provider
 * payment id: were they to name different ids, one failed charge would become two or three
 * recoveries, each retried. So every event names the charge by the same id, the one Stripe's
 * InvoicePayment names too (https://docs.stripe.com/api/invoice-payment/object: a charge "is only
 * surfaced if the charge object is not associated with a payment intent"): the PaymentIntent
 * (`pi_…`) when there is one, else the charge (`ch_…`). The invoice gives them as `payment_intent`
 * / `charge`, the charge as `payment_intent`; refunds and successes use the same id, so they find
 * the recovery.
 *
 * **Basil invoices.** From API version 2025-03-31.basil on, invoices no longer carry
 * `payment_intent` or `charge`, and PaymentIntents and charges no longer carry `invoice`
 * (https://docs.stripe.com/changelog/basil/2025-03-31/add-support-for-multiple-partial-payments-on-invoices):
 * the invoice's payments are InvoicePayment objects in its `payments` list, each naming its
 * PaymentIntent as `payment.payment_intent` (or, without one, its charge as `payment.charge`;
 * https://docs.stripe.com/api/invoice-payment/object). `payments` is an includable field, present
 * only when asked for (`expand[]=payments`; https://docs.stripe.com/api/invoice-payment/list: "When
 * retrieving an invoice, there is an includable payments property"), so the invoice of a webhook
 * event normally lacks it. A basil `invoice.payment_failed` therefore names the PaymentIntent only
 * when its payload does include `payments` (read here: the default payment's, else the first
 * one's). Otherwise, were it ingested under its invoice id alone, its sibling
 * `payment_intent.payment_failed` (which no longer names the invoice) would open a second
 * recovery for the same failure; so the event is marked thin, `fetch: { resource:
 * 'invoice_payment', id: <invoice id> }`, and the consumer completes it from Stripe's API
 * (functions/adapters/provider-api/stripe.ts: the invoice with its payments) before ingest, with
 * the PaymentIntent as payment id. Without the merchant's Stripe API key the consumer fails such
 * an event into the DLQ (ProviderApiKeyMissingError), to be redriven once the key is set: one
 * recovery for one failure is worth more than an early, second one. Older API versions' invoice
 * events name the PaymentIntent themselves and are not fetched; their PaymentIntent and charge
 * events name the invoice (`invoice`), so ingest also finds an open recovery by invoice id.
 * Invoice successes (`invoice.paid`, `invoice.payment_succeeded`) are not fetched: ingest matches
 * a success by invoice id too, and every recorded failure of a basil invoice carries it.
 *
 * **Cards and renewals.** A failed charge's or PaymentIntent's card, and a payment method event's,
 * give the card's expiry (`cardExpiry`), as does `customer.source.expiring` (a `card_expiry`);
 * `invoice.upcoming` is an `upcoming_charge` for pre-dunning.
 */

const PSP = 'stripe';

function parseSignatureHeader(header: string): { readonly timestamp: number; readonly signatures: readonly string[] } | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const separator = item.indexOf('=');
    if (separator <= 0) continue;
    const key = item.slice(0, separator).trim();
    const value = item.slice(separator + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value !== '') signatures.push(value);
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
}

function verify(request: InboundWebhook, credentials: WebhookCredentials, now: Date): Verification {
  if (!credentials.secret) return { ok: false, reason: 'no Stripe signing secret is configured' };
  const header = headerOf(request.headers, 'stripe-signature');
  if (header === undefined) return { ok: false, reason: 'missing Stripe-Signature header' };
  const parsed = parseSignatureHeader(header);
  if (parsed === undefined) return { ok: false, reason: 'malformed Stripe-Signature header: needs t= and v1=' };
  const signedPayload = Buffer.concat([Buffer.from(`${parsed.timestamp}.`, 'utf8'), request.rawBody]);
  const expected = hmacHex('sha256', credentials.secret, signedPayload);
  if (!safeEqualAny(parsed.signatures, expected)) return { ok: false, reason: 'no v1 signature matches the body' };
  if (!withinTolerance(parsed.timestamp, now, TIMESTAMP_TOLERANCE_SECONDS)) {
    return { ok: false, reason: `signature timestamp is more than ${TIMESTAMP_TOLERANCE_SECONDS} s from now` };
  }
  return { ok: true };
}

/** An id field that may arrive as a string id or as the expanded object. */
const idOf = (value: unknown, path: string): string | undefined => {
  const found = at(value, path);
  return isObject(found) ? text(found, 'id') : text(found);
};

const lowerCurrency = (object: JsonObject): string | undefined => text(object, 'currency')?.toLowerCase();

/** The id one failed charge is recorded under: its PaymentIntent's when it has one, else its own (see above). */
const chargePaymentId = (charge: JsonObject): string | undefined => idOf(charge, 'payment_intent') ?? text(charge, 'id');

type Envelope = { readonly id: string; readonly occurredAt?: string };

/** The expiry of the card object at `path` (`exp_month`, `exp_year`), or undefined when there is none. */
const cardExpiryAt = (object: unknown, path: string): CardExpiry | undefined => {
  const card = objectAt(object, path);
  return card === undefined ? undefined : cardExpiryOf(card.exp_month, card.exp_year);
};

/**
 * The payment a basil invoice names in its `payments` list, when the payload includes it: the
 * default InvoicePayment's (the one the invoice created; `is_default`), else the first one's, as
 * its PaymentIntent (`payment.payment_intent`, an id or the expanded object) or, without one, its
 * charge (`payment.charge`). See the module comment.
 */
export function invoicePaymentId(invoice: JsonObject): string | undefined {
  const listed = at(invoice, 'payments.data');
  if (!Array.isArray(listed)) return undefined;
  const payments = listed.filter(isObject);
  const ordered = [...payments.filter((payment) => payment.is_default === true), ...payments.filter((payment) => payment.is_default !== true)];
  for (const payment of ordered) {
    const id = idOf(payment, 'payment.payment_intent') ?? idOf(payment, 'payment.charge');
    if (id !== undefined) return id;
  }
  return undefined;
}

/** The resource name of a basil invoice's payment, fetched by invoice id (see the module comment). */
export const INVOICE_PAYMENT_RESOURCE = 'invoice_payment';

function fromInvoice(type: NormalisedEventType, envelope: Envelope, invoice: JsonObject): NormalisedWebhookEvent {
  const amountField = type === 'payment_failed' ? 'amount_due' : 'amount_paid';
  const providerPaymentId = idOf(invoice, 'payment_intent') ?? idOf(invoice, 'charge') ?? invoicePaymentId(invoice);
  const charge = idOf(invoice, 'charge');
  const invoiceId = text(invoice, 'id');
  // A failure naming no payment (basil): its PaymentIntent is fetched, so its sibling events match it.
  const fetch =
    type === 'payment_failed' && providerPaymentId === undefined && invoiceId !== undefined ? { resource: INVOICE_PAYMENT_RESOURCE, id: invoiceId } : undefined;
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type,
    occurredAt: envelope.occurredAt,
    fetch,
    payment: {
      providerPaymentId,
      providerChargeId: charge === providerPaymentId ? undefined : charge,
      amount: minorAmount(invoice, amountField, PSP),
      currency: lowerCurrency(invoice),
      invoiceId,
      subscriptionId: idOf(invoice, 'subscription') ?? idOf(invoice, 'parent.subscription_details.subscription'),
    },
    customer: { providerCustomerId: idOf(invoice, 'customer'), email: text(invoice, 'customer_email'), name: text(invoice, 'customer_name') },
  });
}

function fromPaymentIntent(type: NormalisedEventType, envelope: Envelope, intent: JsonObject): NormalisedWebhookEvent {
  const error = objectAt(intent, 'last_payment_error');
  const failed = type === 'payment_failed';
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type,
    occurredAt: envelope.occurredAt,
    payment: {
      providerPaymentId: text(intent, 'id'),
      providerChargeId: idOf(intent, 'latest_charge') ?? idOf(error, 'charge'),
      amount: minorAmount(intent, 'amount', PSP),
      currency: lowerCurrency(intent),
      declineCode: failed ? (text(error, 'decline_code') ?? text(error, 'code')) : undefined,
      networkCode: failed ? text(error, 'network_decline_code') : undefined,
      adviceCode: failed ? (text(error, 'network_advice_code') ?? text(error, 'advice_code')) : undefined,
      network: text(error, 'payment_method.card.brand'),
      invoiceId: idOf(intent, 'invoice'),
    },
    customer: {
      providerCustomerId: idOf(intent, 'customer'),
      email: text(error, 'payment_method.billing_details.email') ?? text(intent, 'receipt_email'),
      name: text(error, 'payment_method.billing_details.name'),
    },
    cardExpiry: cardExpiryAt(error, 'payment_method.card'),
  });
}

function fromCharge(type: NormalisedEventType, envelope: Envelope, charge: JsonObject): NormalisedWebhookEvent {
  const failed = type === 'payment_failed';
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type,
    occurredAt: envelope.occurredAt,
    payment: {
      providerPaymentId: chargePaymentId(charge),
      providerChargeId: idOf(charge, 'payment_intent') === undefined ? undefined : text(charge, 'id'),
      amount: minorAmount(charge, type === 'charge_refunded' ? 'amount_refunded' : 'amount', PSP),
      currency: lowerCurrency(charge),
      declineCode: failed ? (text(charge, 'outcome.reason') ?? text(charge, 'failure_code')) : undefined,
      networkCode: failed ? text(charge, 'outcome.network_decline_code') : undefined,
      adviceCode: failed ? (text(charge, 'outcome.network_advice_code') ?? text(charge, 'outcome.advice_code')) : undefined,
      network: text(charge, 'payment_method_details.card.brand'),
      invoiceId: idOf(charge, 'invoice'),
    },
    customer: {
      providerCustomerId: idOf(charge, 'customer'),
      email: text(charge, 'billing_details.email') ?? text(charge, 'receipt_email'),
      name: text(charge, 'billing_details.name'),
    },
    cardExpiry: cardExpiryAt(charge, 'payment_method_details.card'),
  });
}

/**
 * `invoice.upcoming` (sent the days before a subscription renews, as the merchant's Billing
 * settings say): the invoice has no id yet; it is charged at `next_payment_attempt`, else at the
 * end of its period. An invoice that will not be charged automatically (`send_invoice`) or names no
 * due time is no upcoming charge.
 */
function fromUpcomingInvoice(envelope: Envelope, invoice: JsonObject): NormalisedWebhookEvent[] {
  const dueAt = isoFromUnixSeconds(at(invoice, 'next_payment_attempt')) ?? isoFromUnixSeconds(at(invoice, 'period_end'));
  if (dueAt === undefined || text(invoice, 'collection_method') === 'send_invoice') return [];
  return [
    normalisedEvent({
      psp: PSP,
      providerEventId: envelope.id,
      type: 'upcoming_charge',
      occurredAt: envelope.occurredAt,
      dueAt,
      payment: {
        amount: minorAmount(invoice, 'amount_due', PSP),
        currency: lowerCurrency(invoice),
        subscriptionId: idOf(invoice, 'subscription') ?? idOf(invoice, 'parent.subscription_details.subscription'),
      },
      customer: { providerCustomerId: idOf(invoice, 'customer'), email: text(invoice, 'customer_email'), name: text(invoice, 'customer_name') },
    }),
  ];
}

/** `customer.source.expiring`: a customer's card (a source) expires at the end of the month; its expiry is kept on the customer. */
function fromExpiringSource(envelope: Envelope, source: JsonObject): NormalisedWebhookEvent[] {
  const cardExpiry = cardExpiryAt(source, 'card') ?? cardExpiryOf(source.exp_month, source.exp_year);
  if (cardExpiry === undefined) return [];
  return [
    normalisedEvent({
      psp: PSP,
      providerEventId: envelope.id,
      type: 'card_expiry',
      occurredAt: envelope.occurredAt,
      customer: { providerCustomerId: idOf(source, 'customer'), email: text(source, 'owner.email') },
      cardExpiry,
    }),
  ];
}

function fromSubscription(envelope: Envelope, subscription: JsonObject): NormalisedWebhookEvent {
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type: 'subscription_cancelled',
    occurredAt: envelope.occurredAt,
    payment: { subscriptionId: text(subscription, 'id'), currency: lowerCurrency(subscription) },
    customer: { providerCustomerId: idOf(subscription, 'customer') },
  });
}

function fromPaymentMethod(envelope: Envelope, method: JsonObject): NormalisedWebhookEvent {
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type: 'payment_method_updated',
    occurredAt: envelope.occurredAt,
    payment: { network: text(method, 'card.brand') },
    customer: { providerCustomerId: idOf(method, 'customer'), email: text(method, 'billing_details.email'), name: text(method, 'billing_details.name') },
    // The card's expiry (a card updater's new one on automatically_updated); a method without a card has none.
    cardExpiry: cardExpiryAt(method, 'card') ?? null,
  });
}

function fromCustomer(envelope: Envelope, customer: JsonObject): NormalisedWebhookEvent {
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type: 'payment_method_updated',
    occurredAt: envelope.occurredAt,
    customer: { providerCustomerId: text(customer, 'id'), email: text(customer, 'email'), name: text(customer, 'name') },
  });
}

/** customer.updated matters only when the default payment method for invoices changed. */
const defaultPaymentMethodChanged = (event: JsonObject): boolean => {
  const previous = objectAt(event, 'data.previous_attributes.invoice_settings');
  return previous !== undefined && 'default_payment_method' in previous;
};

function normalise(request: InboundWebhook): NormalisedWebhookEvent[] {
  const event = parseJsonObject(request.rawBody, PSP);
  const envelope: Envelope = { id: requiredText(event, 'id', PSP), occurredAt: isoFromUnixSeconds(at(event, 'created')) };
  const type = requiredText(event, 'type', PSP);
  const object = requiredObject(event, 'data.object', PSP);
  switch (type) {
    case 'invoice.payment_failed':
      return [fromInvoice('payment_failed', envelope, object)];
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
      return [fromInvoice('payment_succeeded', envelope, object)];
    case 'payment_intent.payment_failed':
      return [fromPaymentIntent('payment_failed', envelope, object)];
    case 'payment_intent.succeeded':
      return [fromPaymentIntent('payment_succeeded', envelope, object)];
    case 'charge.failed':
      return [fromCharge('payment_failed', envelope, object)];
    case 'charge.succeeded':
      return [fromCharge('payment_succeeded', envelope, object)];
    case 'charge.refunded':
      return [fromCharge('charge_refunded', envelope, object)];
    case 'invoice.upcoming':
      return fromUpcomingInvoice(envelope, object);
    case 'customer.source.expiring':
      return fromExpiringSource(envelope, object);
    case 'customer.subscription.deleted':
      return [fromSubscription(envelope, object)];
    case 'payment_method.automatically_updated':
    case 'payment_method.updated':
    case 'payment_method.attached':
      return [fromPaymentMethod(envelope, object)];
    case 'customer.updated':
      return defaultPaymentMethodChanged(event) ? [fromCustomer(envelope, object)] : [];
    default:
      return [];
  }
}

export const stripeWebhook: ProviderWebhook = { psp: PSP, verify, normalise };
