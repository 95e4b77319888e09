import { headerOf, hmacHex, safeEqual } from './crypto';
import { type JsonObject, majorAmount, normalisedEvent, parseJsonObject, requiredObject, requiredText, text } from './json-payload';
import type { InboundWebhook, NormalisedEventType, NormalisedWebhookEvent, ProviderWebhook, Verification, WebhookCredentials } from './types';

/**
 * Authorize.Net webhooks (developer.authorize.net/api/reference/features/webhooks.html; the
 * official Node SDK has no webhook helper).
 *
 * **credentials.secret** holds the merchant's Signature Key (Account > Settings > API Credentials
 * & Keys, a 128-character hex string), used as text, exactly as the Merchant Interface shows it.
 *
 * Verification: `X-ANET-Signature: sha512=<HEX>` is the HMAC-SHA512 of the raw body; Authorize.Net
 * sends uppercase hex, so hex case is ignored. No time is signed (eventDate is only in the body),
 * so there is no tolerance; replays are caught by deduplicating on notificationId.
 *
 * Events are thin: no currency, email or response reason code. Every event sets `fetch` (the
 * transaction, subscription or customer payment profile to read with getTransactionDetails /
 * ARBGetSubscription / getCustomerProfile, functions/adapters/provider-api/authorize-net.ts). Amounts
 * are major-unit numbers; every currency Authorize.Net settles in (USD, CAD, GBP, EUR, AUD, NZD,
 * CHF, DKK, NOK, PLN, SEK) has two decimals, so they convert to minor units without knowing which.
 */

const PSP = 'authorize_net';
const TWO_DECIMAL_CURRENCY = 'usd';

const SUBSCRIPTION_EVENTS: ReadonlyMap<string, NormalisedEventType> = new Map<string, NormalisedEventType>([
  ['net.authorize.customer.subscription.failed', 'payment_failed'],
  ['net.authorize.customer.subscription.cancelled', 'subscription_cancelled'],
  ['net.authorize.customer.subscription.terminated', 'subscription_cancelled'],
  ['net.authorize.customer.subscription.expired', 'subscription_cancelled'],
]);

/** responseCode on a transaction payload: 1 approved, 2 declined, 3 error, 4 held for review. */
const transactionType = (eventType: string, responseCode: string | undefined): NormalisedEventType | undefined => {
  if (eventType === 'net.authorize.payment.fraud.declined') return 'payment_failed';
  if (eventType === 'net.authorize.payment.refund.created') return responseCode === '1' ? 'charge_refunded' : undefined;
  if (eventType !== 'net.authorize.payment.authcapture.created') return undefined;
  if (responseCode === '1') return 'payment_succeeded';
  return responseCode === '2' || responseCode === '3' ? 'payment_failed' : undefined;
};

function verify(request: InboundWebhook, credentials: WebhookCredentials, _now: Date): Verification {
  if (!credentials.secret) return { ok: false, reason: 'no Authorize.Net Signature Key is configured' };
  const header = headerOf(request.headers, 'x-anet-signature');
  if (header === undefined) return { ok: false, reason: 'missing X-ANET-Signature header' };
  const match = /^sha512=(.+)$/i.exec(header);
  if (match?.[1] === undefined) return { ok: false, reason: 'malformed X-ANET-Signature header: expected sha512=<hex>' };
  const expected = hmacHex('sha512', credentials.secret, request.rawBody).toUpperCase();
  return safeEqual(match[1].toUpperCase(), expected) ? { ok: true } : { ok: false, reason: 'X-ANET-Signature does not match the body' };
}

function fromTransaction(type: NormalisedEventType, notification: JsonObject, payload: JsonObject): NormalisedWebhookEvent {
  const id = requiredText(payload, 'id', PSP);
  return normalisedEvent({
    psp: PSP,
    providerEventId: requiredText(notification, 'notificationId', PSP),
    type,
    occurredAt: text(notification, 'eventDate'),
    payment: { providerPaymentId: id, amount: majorAmount(payload, 'authAmount', TWO_DECIMAL_CURRENCY, PSP) },
    fetch: { resource: 'transaction', id },
  });
}

function fromSubscription(type: NormalisedEventType, notification: JsonObject, payload: JsonObject): NormalisedWebhookEvent {
  const subscriptionId = requiredText(payload, 'id', PSP);
  const transactionId = type === 'payment_failed' ? text(payload, 'transactionDetails.transId') : undefined;
  return normalisedEvent({
    psp: PSP,
    providerEventId: requiredText(notification, 'notificationId', PSP),
    type,
    occurredAt: text(notification, 'eventDate'),
    payment: {
      providerPaymentId: transactionId,
      amount: type === 'payment_failed' ? majorAmount(payload, 'amount', TWO_DECIMAL_CURRENCY, PSP) : undefined,
      subscriptionId,
    },
    customer: { providerCustomerId: text(payload, 'profile.customerProfileId') },
    fetch: transactionId === undefined ? { resource: 'subscription', id: subscriptionId } : { resource: 'transaction', id: transactionId },
  });
}

/**
 * The payment profile payload is `{ customerProfileId, entityName: "customerPaymentProfile", id,
 * customerType }`; Authorize.Net reads a payment profile only with its customer profile, so the
 * fetch id is `<customerProfileId>/<id>`.
 */
function fromPaymentProfile(notification: JsonObject, payload: JsonObject): NormalisedWebhookEvent {
  const customerProfileId = requiredText(payload, 'customerProfileId', PSP);
  return normalisedEvent({
    psp: PSP,
    providerEventId: requiredText(notification, 'notificationId', PSP),
    type: 'payment_method_updated',
    occurredAt: text(notification, 'eventDate'),
    customer: { providerCustomerId: customerProfileId },
    fetch: { resource: 'customerPaymentProfile', id: `${customerProfileId}/${requiredText(payload, 'id', PSP)}` },
  });
}

function normalise(request: InboundWebhook): NormalisedWebhookEvent[] {
  const notification = parseJsonObject(request.rawBody, PSP);
  const eventType = requiredText(notification, 'eventType', PSP);
  const payload = requiredObject(notification, 'payload', PSP);
  if (eventType === 'net.authorize.customer.paymentProfile.updated') return [fromPaymentProfile(notification, payload)];
  const subscriptionType = SUBSCRIPTION_EVENTS.get(eventType);
  if (subscriptionType !== undefined) return [fromSubscription(subscriptionType, notification, payload)];
  const type = transactionType(eventType, text(payload, 'responseCode'));
  return type === undefined ? [] : [fromTransaction(type, notification, payload)];
}

export const authorizeNetWebhook: ProviderWebhook = { psp: PSP, verify, normalise };
