import { headerOf, hmacHex, safeEqual, sha256Hex } from './crypto';
import { type JsonObject, minorAmount, normalisedEvent, objectAt, parseJsonObject, requiredObject, requiredText, text } from './json-payload';
import { lowercaseCurrency } from './provider-fields';
import type { InboundWebhook, NormalisedWebhookEvent, ProviderWebhook, Verification, WebhookCredentials } from './types';

/**
 * Razorpay webhooks (https://razorpay.com/docs/webhooks/validate-test/).
 *
 * **Secret**: `credentials.secret` holds the webhook secret entered when the webhook was set up in
 * the Razorpay Dashboard, used as-is as the HMAC key.
 *
 * **Verification**: `X-Razorpay-Signature` is HMAC-SHA256(secret, rawBody) in lowercase hex,
 * compared in constant time (Razorpay's own `validateWebhookSignature` uses `===`). Razorpay signs
 * no time, so there is no replay window: redeliveries are deduplicated on the event id.
 *
 * **Event id**: the sha256 of the signed body. Razorpay's own event id travels in the
 * `x-razorpay-event-id` header, outside the signed bytes, and Razorpay signs no time: with the
 * header as the key, a captured body replayed under a fresh header would pass as a new event, so
 * the deduplication key (the only replay protection here) is taken from the signed bytes instead.
 * A redelivery carries the same body, hence the same id.
 *
 * **Events**: `payment.failed` → payment_failed (decline code `error_reason`, else `error_code`),
 * `payment.captured` and `subscription.charged` → payment_succeeded, `refund.processed` →
 * charge_refunded, `subscription.cancelled` → subscription_cancelled; everything else → [].
 * `subscription.pending` / `subscription.halted` are state changes of a charge whose failure
 * already arrives as `payment.failed`, so they are not counted again. Amounts are integers in the
 * smallest unit (paise for INR).
 */
export const razorpayWebhook: ProviderWebhook = {
  psp: 'razorpay',
  verify: verifyRazorpay,
  normalise: normaliseRazorpay,
};

function verifyRazorpay(request: InboundWebhook, credentials: WebhookCredentials): Verification {
  if (typeof credentials.secret !== 'string' || credentials.secret === '') return { ok: false, reason: 'no razorpay secret configured' };
  const signature = headerOf(request.headers, 'x-razorpay-signature');
  if (signature === undefined) return { ok: false, reason: 'missing X-Razorpay-Signature header' };
  const expected = hmacHex('sha256', credentials.secret, request.rawBody);
  return safeEqual(signature, expected) ? { ok: true } : { ok: false, reason: 'X-Razorpay-Signature does not match' };
}

function normaliseRazorpay(request: InboundWebhook): NormalisedWebhookEvent[] {
  const body = parseJsonObject(request.rawBody, 'razorpay');
  const event = requiredText(body, 'event', 'razorpay');
  const createdAt = body.created_at;
  const base = {
    psp: 'razorpay' as const,
    providerEventId: sha256Hex(request.rawBody),
    occurredAt: typeof createdAt === 'number' && Number.isFinite(createdAt) ? new Date(createdAt * 1000).toISOString() : undefined,
  };
  const subscription = objectAt(body, 'payload.subscription.entity');

  switch (event) {
    case 'payment.failed': {
      const payment = requiredObject(body, 'payload.payment.entity', 'razorpay');
      return [
        normalisedEvent({
          ...base,
          type: 'payment_failed',
          payment: { ...paymentFields(payment, subscription), declineCode: text(payment, 'error_reason') ?? text(payment, 'error_code') },
          customer: customerOf(payment, subscription),
        }),
      ];
    }
    case 'payment.captured':
    case 'subscription.charged': {
      const payment = requiredObject(body, 'payload.payment.entity', 'razorpay');
      return [
        normalisedEvent({ ...base, type: 'payment_succeeded', payment: paymentFields(payment, subscription), customer: customerOf(payment, subscription) }),
      ];
    }
    case 'refund.processed': {
      const refund = requiredObject(body, 'payload.refund.entity', 'razorpay');
      const payment = objectAt(body, 'payload.payment.entity');
      return [
        normalisedEvent({
          ...base,
          type: 'charge_refunded',
          payment: {
            providerPaymentId: requiredText(refund, 'payment_id', 'razorpay'),
            amount: minorAmount(refund, 'amount', 'razorpay'),
            currency: lowercaseCurrency(refund, 'currency', 'razorpay'),
            invoiceId: text(payment, 'invoice_id'),
          },
          customer: payment === undefined ? undefined : customerOf(payment, subscription),
        }),
      ];
    }
    case 'subscription.cancelled': {
      const cancelled = requiredObject(body, 'payload.subscription.entity', 'razorpay');
      return [
        normalisedEvent({
          ...base,
          type: 'subscription_cancelled',
          payment: { subscriptionId: requiredText(cancelled, 'id', 'razorpay') },
          customer: { providerCustomerId: text(cancelled, 'customer_id') },
        }),
      ];
    }
    default:
      return [];
  }
}

function paymentFields(payment: JsonObject, subscription: JsonObject | undefined): NonNullable<NormalisedWebhookEvent['payment']> {
  return {
    providerPaymentId: requiredText(payment, 'id', 'razorpay'),
    amount: minorAmount(payment, 'amount', 'razorpay'),
    currency: lowercaseCurrency(payment, 'currency', 'razorpay'),
    network: text(payment, 'card.network')?.toLowerCase(),
    invoiceId: text(payment, 'invoice_id'),
    subscriptionId: text(subscription, 'id'),
  };
}

function customerOf(payment: JsonObject, subscription: JsonObject | undefined): NormalisedWebhookEvent['customer'] {
  return { email: text(payment, 'email'), providerCustomerId: text(payment, 'customer_id') ?? text(subscription, 'customer_id') };
}
