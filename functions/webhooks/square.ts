import { headerOf, hmacBase64, safeEqual } from './crypto';
import {
  type JsonObject,
  isObject,
  joinName,
  listAt,
  minorAmount,
  normalisedEvent,
  objectAt,
  parseJsonObject,
  requiredObject,
  requiredText,
  text,
} from './json-payload';
import type { InboundWebhook, NormalisedEventType, NormalisedWebhookEvent, ProviderWebhook, Verification, WebhookCredentials } from './types';

/**
 * Square webhooks (developer.squareup.com/docs/webhooks/step3validate; square-nodejs-sdk
 * `WebhooksHelper.verifySignature`, which verifies only).
 *
 * **credentials.secret** holds the webhook subscription's signature key, as the Developer Console
 * shows it, used as UTF-8 text.
 *
 * Verification: `x-square-hmacsha256-signature` is the HMAC-SHA256, standard base64, of the
 * notification URL exactly as registered (here `request.url`, so the route must see the public
 * URL Square posted to) followed by the raw body. No time is signed, so there is no tolerance;
 * replays are caught by deduplicating on event_id.
 *
 * **One charge, one payment id.** A failed invoice charge can arrive twice: as
 * `invoice.scheduled_charge_failed` (the invoice subscription, POST …/invoice) and as
 * `payment.created` / `payment.updated` with status FAILED (the payment subscription). Ingest
 * deduplicates failures by provider payment id, and the invoice names no payment, only its order
 * (Invoice `order_id`, https://developer.squareup.com/reference/square/objects/Invoice), which the
 * payment names too (Payment `order_id`, https://developer.squareup.com/reference/square/objects/Payment).
 * So the provider payment id is the order id whenever the object has one, else the payment id;
 * successes and refunds (Refund `order_id`) use the same rule, so they find the recovery. Square
 * retries of one order are then one recovery, as the order is owed once.
 */

const PSP = 'square';

function verify(request: InboundWebhook, credentials: WebhookCredentials, _now: Date): Verification {
  if (!credentials.secret) return { ok: false, reason: 'no Square signature key is configured' };
  if (!request.url) return { ok: false, reason: 'the notification URL is unknown' };
  const signature = headerOf(request.headers, 'x-square-hmacsha256-signature');
  if (signature === undefined) return { ok: false, reason: 'missing x-square-hmacsha256-signature header' };
  const expected = hmacBase64('sha256', credentials.secret, Buffer.concat([Buffer.from(request.url, 'utf8'), request.rawBody]));
  return safeEqual(signature, expected) ? { ok: true } : { ok: false, reason: 'x-square-hmacsha256-signature does not match the URL and body' };
}

type Envelope = { readonly id: string; readonly occurredAt?: string };

const currencyOf = (money: unknown): string | undefined => text(money, 'currency')?.toLowerCase();

/** The id a charge is recorded under: the order it pays when it names one, else `fallback` (see above). */
const orderOr = (object: JsonObject, fallback: string): string | undefined => text(object, 'order_id') ?? text(object, fallback);

function fromPayment(type: NormalisedEventType, envelope: Envelope, payment: JsonObject): NormalisedWebhookEvent {
  const failed = type === 'payment_failed';
  const error = listAt(payment, 'card_details.errors').find(isObject);
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type,
    occurredAt: envelope.occurredAt,
    payment: {
      providerPaymentId: orderOr(payment, 'id'),
      amount: minorAmount(payment, 'amount_money.amount', PSP),
      currency: currencyOf(objectAt(payment, 'amount_money')),
      declineCode: failed ? text(error, 'code') : undefined,
      network: text(payment, 'card_details.card.card_brand')?.toLowerCase(),
    },
    customer: { providerCustomerId: text(payment, 'customer_id'), email: text(payment, 'buyer_email_address') },
  });
}

function fromInvoice(type: NormalisedEventType, envelope: Envelope, invoice: JsonObject): NormalisedWebhookEvent {
  const request = listAt(invoice, 'payment_requests').find(isObject);
  const recipient = objectAt(invoice, 'primary_recipient');
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type,
    occurredAt: envelope.occurredAt,
    payment: {
      providerPaymentId: text(invoice, 'order_id'),
      amount: minorAmount(request, 'computed_amount_money.amount', PSP),
      currency: currencyOf(objectAt(request, 'computed_amount_money')),
      invoiceId: text(invoice, 'id'),
      subscriptionId: text(invoice, 'subscription_id'),
    },
    customer: {
      providerCustomerId: text(recipient, 'customer_id'),
      email: text(recipient, 'email_address'),
      name: joinName(text(recipient, 'given_name'), text(recipient, 'family_name')),
    },
  });
}

function fromRefund(envelope: Envelope, refund: JsonObject): NormalisedWebhookEvent {
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type: 'charge_refunded',
    occurredAt: envelope.occurredAt,
    payment: {
      providerPaymentId: orderOr(refund, 'payment_id'),
      amount: minorAmount(refund, 'amount_money.amount', PSP),
      currency: currencyOf(objectAt(refund, 'amount_money')),
    },
  });
}

function fromCard(envelope: Envelope, card: JsonObject): NormalisedWebhookEvent {
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type: 'payment_method_updated',
    occurredAt: envelope.occurredAt,
    payment: { network: text(card, 'card_brand')?.toLowerCase() },
    customer: { providerCustomerId: text(card, 'customer_id'), name: text(card, 'cardholder_name') },
  });
}

function fromSubscription(envelope: Envelope, subscription: JsonObject): NormalisedWebhookEvent {
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type: 'subscription_cancelled',
    occurredAt: envelope.occurredAt,
    payment: { subscriptionId: text(subscription, 'id') },
    customer: { providerCustomerId: text(subscription, 'customer_id') },
  });
}

/** The object the event is about: data.object holds one key named after data.type (payment, invoice ...). */
function dataObject(event: JsonObject, key: string): JsonObject {
  return requiredObject(event, `data.object.${key}`, PSP);
}

function normalise(request: InboundWebhook): NormalisedWebhookEvent[] {
  const event = parseJsonObject(request.rawBody, PSP);
  const envelope: Envelope = { id: requiredText(event, 'event_id', PSP), occurredAt: text(event, 'created_at') };
  const type = requiredText(event, 'type', PSP);
  switch (type) {
    case 'payment.created':
    case 'payment.updated': {
      const payment = dataObject(event, 'payment');
      const status = text(payment, 'status');
      if (status === 'FAILED') return [fromPayment('payment_failed', envelope, payment)];
      return status === 'COMPLETED' && type === 'payment.updated' ? [fromPayment('payment_succeeded', envelope, payment)] : [];
    }
    case 'invoice.scheduled_charge_failed':
      return [fromInvoice('payment_failed', envelope, dataObject(event, 'invoice'))];
    case 'invoice.payment_made':
      return [fromInvoice('payment_succeeded', envelope, dataObject(event, 'invoice'))];
    case 'refund.created':
    case 'refund.updated': {
      const refund = dataObject(event, 'refund');
      return text(refund, 'status') === 'COMPLETED' ? [fromRefund(envelope, refund)] : [];
    }
    case 'card.automatically_updated':
    case 'card.updated':
      return [fromCard(envelope, dataObject(event, 'card'))];
    case 'subscription.updated': {
      const subscription = dataObject(event, 'subscription');
      return text(subscription, 'status') === 'CANCELED' ? [fromSubscription(envelope, subscription)] : [];
    }
    default:
      return [];
  }
}

export const squareWebhook: ProviderWebhook = { psp: PSP, verify, normalise };
