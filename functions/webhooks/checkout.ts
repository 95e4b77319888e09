import { headerOf, hmacHex, safeEqual } from './crypto';
import { type JsonObject, minorAmount, normalisedEvent, parseJsonObject, requiredObject, requiredText, text } from './json-payload';
import type { InboundWebhook, NormalisedEventType, NormalisedWebhookEvent, ProviderWebhook, Verification, WebhookCredentials } from './types';

/**
 * Checkout.com webhooks (docs "Webhook signature"; there is no signing helper in checkout-sdk-node).
 *
 * **credentials.secret** holds the webhook's signature key (the "secret key" shown when the
 * webhook was created in the Dashboard), used as UTF-8 text.
 *
 * Verification: `Cko-Signature` is the HMAC-SHA256 of the raw body, lowercase hex. No time is
 * signed, so there is no tolerance; replays are caught by deduplicating on the event id. The
 * optional static `Authorization` header key is not checked: the HMAC already proves the sender.
 */

const PSP = 'checkout';

const EVENT_TYPES: ReadonlyMap<string, NormalisedEventType> = new Map<string, NormalisedEventType>([
  ['payment_declined', 'payment_failed'],
  ['payment_capture_declined', 'payment_failed'],
  ['payment_approved', 'payment_succeeded'],
  ['payment_captured', 'payment_succeeded'],
  ['payment_refunded', 'charge_refunded'],
]);

function verify(request: InboundWebhook, credentials: WebhookCredentials, _now: Date): Verification {
  if (!credentials.secret) return { ok: false, reason: 'no Checkout.com signature key is configured' };
  const signature = headerOf(request.headers, 'cko-signature');
  if (signature === undefined) return { ok: false, reason: 'missing Cko-Signature header' };
  const expected = hmacHex('sha256', credentials.secret, request.rawBody);
  return safeEqual(signature.toLowerCase(), expected) ? { ok: true } : { ok: false, reason: 'Cko-Signature does not match the body' };
}

function fromPayment(type: NormalisedEventType, event: JsonObject, data: JsonObject): NormalisedWebhookEvent {
  const failed = type === 'payment_failed';
  return normalisedEvent({
    psp: PSP,
    providerEventId: requiredText(event, 'id', PSP),
    type,
    occurredAt: text(event, 'created_on'),
    payment: {
      providerPaymentId: requiredText(data, 'id', PSP),
      amount: minorAmount(data, 'amount', PSP),
      currency: text(data, 'currency')?.toLowerCase(),
      declineCode: failed ? text(data, 'response_code') : undefined,
      networkCode: failed ? text(data, 'processing.partner_response_code') : undefined,
      adviceCode: failed ? text(data, 'processing.partner_merchant_advice_code') : undefined,
      network: (text(data, 'processing.scheme') ?? text(data, 'source.scheme'))?.toLowerCase(),
    },
    customer: { providerCustomerId: text(data, 'customer.id'), email: text(data, 'customer.email'), name: text(data, 'customer.name') },
  });
}

function normalise(request: InboundWebhook): NormalisedWebhookEvent[] {
  const event = parseJsonObject(request.rawBody, PSP);
  const type = EVENT_TYPES.get(requiredText(event, 'type', PSP));
  if (type === undefined) return [];
  return [fromPayment(type, event, requiredObject(event, 'data', PSP))];
}

export const checkoutWebhook: ProviderWebhook = { psp: PSP, verify, normalise };
