import { type CardExpiry, cardExpiryOf } from '#core/customers';
import { headerOf, safeEqual } from './crypto';
import {
  type JsonObject,
  isoFromUnixSeconds,
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
import { lowercaseCurrency } from './provider-fields';
import type { InboundWebhook, NormalisedEventType, NormalisedWebhookEvent, ProviderWebhook, Verification, WebhookCredentials } from './types';

/**
 * Chargebee webhooks (https://www.chargebee.com/docs/billing/2.0/site-configuration/webhook_settings).
 *
 * **Secret**: `credentials.secret` holds `username:password`, exactly the HTTP Basic credentials
 * configured on the Chargebee webhook (split at the first `:`, so the password may contain `:`).
 *
 * **Verification**: Chargebee signs nothing; its only scheme is `Authorization: Basic
 * base64(username:password)`. The decoded credentials are compared with the secret in constant
 * time. No time is signed, so there is no replay window: redeliveries are deduplicated on the
 * event id (`ev_...`), which is the `providerEventId`.
 *
 * **Events**: `payment_failed` → payment_failed, `payment_succeeded` → payment_succeeded,
 * `payment_refunded` → charge_refunded, `card_updated` / `payment_source_added` /
 * `payment_source_updated` → payment_method_updated, `subscription_cancelled` →
 * subscription_cancelled, `subscription_renewal_reminder` → upcoming_charge (pre-dunning),
 * `card_expiry_reminder` → card_expiry;
 * everything else → []. Transaction amounts are already integers in the
 * currency's smallest unit. The decline code is `transaction.error_detail.decline_code` when the
 * gateway gave one, else `transaction.error_code` (Chargebee passes the gateway's code through).
 */
export const chargebeeWebhook: ProviderWebhook = {
  psp: 'chargebee',
  verify: verifyChargebee,
  normalise: normaliseChargebee,
};

const BASIC = /^basic[ \t]+([A-Za-z0-9+/]+={0,2})$/i;

function verifyChargebee(request: InboundWebhook, credentials: WebhookCredentials): Verification {
  const expected = credentials.secret;
  if (typeof expected !== 'string' || !expected.includes(':')) return { ok: false, reason: 'chargebee secret is not username:password' };
  const authorization = headerOf(request.headers, 'authorization');
  if (authorization === undefined) return { ok: false, reason: 'missing Authorization header' };
  const match = BASIC.exec(authorization);
  if (match?.[1] === undefined) return { ok: false, reason: 'Authorization header is not Basic credentials' };
  const presented = Buffer.from(match[1], 'base64');
  return safeEqual(presented, Buffer.from(expected, 'utf8')) ? { ok: true } : { ok: false, reason: 'Basic credentials do not match' };
}

const EVENT_TYPES: Readonly<Record<string, NormalisedEventType>> = {
  payment_failed: 'payment_failed',
  payment_succeeded: 'payment_succeeded',
  payment_refunded: 'charge_refunded',
  card_updated: 'payment_method_updated',
  payment_source_added: 'payment_method_updated',
  payment_source_updated: 'payment_method_updated',
  subscription_cancelled: 'subscription_cancelled',
};

function normaliseChargebee(request: InboundWebhook): NormalisedWebhookEvent[] {
  const body = parseJsonObject(request.rawBody, 'chargebee');
  const providerEventId = requiredText(body, 'id', 'chargebee');
  const eventType = requiredText(body, 'event_type', 'chargebee');
  if (eventType === 'subscription_renewal_reminder')
    return renewalReminder(providerEventId, isoFromUnixSeconds(body.occurred_at), requiredObject(body, 'content', 'chargebee'));
  if (eventType === 'card_expiry_reminder')
    return expiryReminder(providerEventId, isoFromUnixSeconds(body.occurred_at), requiredObject(body, 'content', 'chargebee'));
  const type = EVENT_TYPES[eventType];
  if (type === undefined) return [];
  const content = requiredObject(body, 'content', 'chargebee');
  const occurredAt = isoFromUnixSeconds(body.occurred_at);
  const customer = customerOf(content);

  if (type === 'payment_method_updated' || type === 'subscription_cancelled') {
    const subscriptionId = text(content, 'subscription.id');
    // A new card's expiry: the card_updated event's `card`, a payment source's `payment_source.card` (none: cleared).
    const cardExpiry = type === 'payment_method_updated' ? (cardExpiryIn(content) ?? null) : undefined;
    return [normalisedEvent({ psp: 'chargebee', providerEventId, type, occurredAt, payment: { subscriptionId }, customer, cardExpiry })];
  }

  const transaction = requiredObject(content, 'transaction', 'chargebee');
  const payment = paymentOf(content, transaction);
  // A refund is a transaction of its own; the payment it refunds is refunded_txn_id.
  const refunded = type === 'charge_refunded' ? text(transaction, 'refunded_txn_id') : undefined;
  return [
    normalisedEvent({
      psp: 'chargebee',
      providerEventId,
      type,
      occurredAt,
      payment: { ...payment, providerPaymentId: refunded ?? payment.providerPaymentId },
      customer,
      cardExpiry: type === 'payment_failed' ? cardExpiryIn(content) : undefined,
    }),
  ];
}

/**
 * `subscription_renewal_reminder` (sent the days before a renewal, as the site's notification
 * settings say): the subscription renews at `next_billing_at`, for `plan_amount` (Product Catalog
 * 1.0) or its items' amounts (2.0; one subscription, one currency), in `currency_code`. The
 * reminder's card gives the card's expiry too.
 */
function renewalReminder(providerEventId: string, occurredAt: string | undefined, content: JsonObject): NormalisedWebhookEvent[] {
  const subscription = requiredObject(content, 'subscription', 'chargebee');
  const dueAt = isoFromUnixSeconds(subscription.next_billing_at);
  if (dueAt === undefined) return [];
  const items = listAt(subscription, 'subscription_items').filter((item): item is JsonObject => typeof item === 'object' && item !== null);
  const itemsAmount = items.reduce((sum, item) => sum + (minorAmount(item, 'amount', 'chargebee') ?? 0), 0);
  return [
    normalisedEvent({
      psp: 'chargebee',
      providerEventId,
      type: 'upcoming_charge',
      occurredAt,
      dueAt,
      payment: {
        amount: minorAmount(subscription, 'plan_amount', 'chargebee') ?? (items.length > 0 ? itemsAmount : undefined),
        currency: lowercaseCurrency(subscription, 'currency_code', 'chargebee'),
        subscriptionId: text(subscription, 'id'),
      },
      customer: customerOf(content),
      cardExpiry: cardExpiryIn(content),
    }),
  ];
}

/** `card_expiry_reminder`: the customer's card expires soon; its expiry is kept on the customer. */
function expiryReminder(providerEventId: string, occurredAt: string | undefined, content: JsonObject): NormalisedWebhookEvent[] {
  const cardExpiry = cardExpiryIn(content);
  if (cardExpiry === undefined) return [];
  return [normalisedEvent({ psp: 'chargebee', providerEventId, type: 'card_expiry', occurredAt, customer: customerOf(content), cardExpiry })];
}

/** The expiry of the event's card (`card`, else `payment_source.card`: `expiry_month`, `expiry_year`), when it has one. */
function cardExpiryIn(content: JsonObject): CardExpiry | undefined {
  const card = objectAt(content, 'card') ?? objectAt(content, 'payment_source.card');
  return card === undefined ? undefined : cardExpiryOf(card.expiry_month, card.expiry_year);
}

function paymentOf(content: JsonObject, transaction: JsonObject): NonNullable<NormalisedWebhookEvent['payment']> {
  const detail = objectAt(transaction, 'error_detail');
  const linkedInvoice = listAt(transaction, 'linked_invoices')[0];
  return {
    providerPaymentId: requiredText(transaction, 'id', 'chargebee'),
    amount: minorAmount(transaction, 'amount', 'chargebee'),
    currency: lowercaseCurrency(transaction, 'currency_code', 'chargebee'),
    declineCode: text(detail, 'decline_code') ?? text(transaction, 'error_code'),
    networkCode: text(detail, 'network_error_code'),
    adviceCode: text(detail, 'processor_advice_code'),
    network: text(content, 'card.card_type')?.toLowerCase(),
    invoiceId: text(content, 'invoice.id') ?? text(linkedInvoice, 'invoice_id'),
    subscriptionId: text(transaction, 'subscription_id') ?? text(content, 'subscription.id'),
  };
}

function customerOf(content: JsonObject): NormalisedWebhookEvent['customer'] {
  return {
    email: text(content, 'customer.email'),
    name: joinName(text(content, 'customer.first_name'), text(content, 'customer.last_name')),
    providerCustomerId:
      text(content, 'customer.id') ??
      text(content, 'transaction.customer_id') ??
      text(content, 'payment_source.customer_id') ??
      text(content, 'subscription.customer_id'),
  };
}
