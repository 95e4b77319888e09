import { createHash, createHmac } from 'node:crypto';
import { type XmlElement, XmlSyntaxError, childAt, parseXml, textAt } from './braintree-xml';
import { safeEqual, sha256Hex } from './crypto';
import { joinName, minorFromMajor, normalisedEvent } from './json-payload';
import {
  type InboundWebhook,
  type NormalisedEventType,
  type NormalisedWebhookEvent,
  type ProviderWebhook,
  type Verification,
  type WebhookCredentials,
  WebhookBodyFormatError,
  WebhookPayloadError,
} from './types';

/**
 * Braintree webhooks (braintree_node `lib/braintree/webhook_notification_gateway.js`,
 * `lib/braintree/digest.js`).
 *
 * **credentials.secret** holds the API key pair as `public_key:private_key` (both from Settings >
 * API in the Control Panel).
 *
 * Verification: the body is `application/x-www-form-urlencoded` with `bt_signature` and
 * `bt_payload`. `bt_payload` is base64 XML; `bt_signature` is one or more `public_key|hex_hmac`
 * pairs joined by `&`. The pair for our public key must hold the HMAC-SHA1, hex, of `bt_payload`
 * exactly as received (or of it plus a trailing newline, as the SDK accepts), keyed by the raw
 * SHA-1 digest of the private key. Payloads with characters outside base64 and newlines are
 * refused, as the SDK does. No time is signed, so there is no tolerance. Braintree sends no event
 * id: providerEventId is the SHA-256 of `bt_payload`, identical on every redelivery.
 */

const PSP = 'braintree';

const KINDS: ReadonlyMap<string, NormalisedEventType> = new Map<string, NormalisedEventType>([
  ['subscription_charged_unsuccessfully', 'payment_failed'],
  ['subscription_went_past_due', 'payment_failed'],
  ['subscription_charged_successfully', 'payment_succeeded'],
  ['subscription_went_active', 'payment_succeeded'],
  ['subscription_canceled', 'subscription_cancelled'],
  ['subscription_expired', 'subscription_cancelled'],
]);

function formFields(rawBody: Buffer): { readonly signature?: string; readonly payload?: string } {
  const fields = new URLSearchParams(rawBody.toString('utf8'));
  return { signature: fields.get('bt_signature') ?? undefined, payload: fields.get('bt_payload') ?? undefined };
}

function parseKeys(secret: string): { readonly publicKey: string; readonly privateKey: string } | undefined {
  const separator = secret.indexOf(':');
  if (separator <= 0 || separator === secret.length - 1) return undefined;
  return { publicKey: secret.slice(0, separator), privateKey: secret.slice(separator + 1) };
}

function verify(request: InboundWebhook, credentials: WebhookCredentials, _now: Date): Verification {
  const keys = parseKeys(credentials.secret);
  if (keys === undefined) return { ok: false, reason: 'the Braintree secret is not configured as public_key:private_key' };
  const { signature, payload } = formFields(request.rawBody);
  if (!signature) return { ok: false, reason: 'missing bt_signature' };
  if (!payload) return { ok: false, reason: 'missing bt_payload' };
  if (/[^A-Za-z0-9+=/\n]/.test(payload)) return { ok: false, reason: 'bt_payload contains characters outside base64' };
  const received = signature
    .split('&')
    .map((pair) => pair.split('|'))
    .find(([publicKey, hex]) => publicKey === keys.publicKey && hex !== undefined)?.[1];
  if (received === undefined) return { ok: false, reason: 'bt_signature has no signature for this public key' };
  const key = createHash('sha1').update(keys.privateKey, 'latin1').digest();
  const matches = [payload, `${payload}\n`].map((data) => safeEqual(received, createHmac('sha1', key).update(data, 'latin1').digest('hex')));
  return matches.includes(true) ? { ok: true } : { ok: false, reason: 'bt_signature does not match bt_payload' };
}

function readNotification(payload: string): XmlElement {
  try {
    const notification = parseXml(Buffer.from(payload, 'base64').toString('utf8'));
    if (notification.name !== 'notification') throw new WebhookPayloadError('braintree bt_payload is not a <notification>');
    return notification;
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw new WebhookBodyFormatError('braintree bt_payload is not well-formed XML', { cause: error });
    throw error;
  }
}

function fromSubscription(type: NormalisedEventType, providerEventId: string, notification: XmlElement): NormalisedWebhookEvent {
  const subscription = childAt(notification, 'subject/subscription');
  if (subscription === undefined) throw new WebhookPayloadError('braintree subscription notification has no <subscription>');
  // Braintree lists a subscription's transactions most recent first.
  const transaction = childAt(subscription, 'transactions/transaction');
  const currency = textAt(transaction, 'currency-iso-code')?.toLowerCase();
  const failed = type === 'payment_failed';
  const amount = textAt(transaction, 'amount');
  return normalisedEvent({
    psp: PSP,
    providerEventId,
    type,
    occurredAt: textAt(notification, 'timestamp'),
    payment: {
      providerPaymentId: type === 'subscription_cancelled' ? undefined : textAt(transaction, 'id'),
      amount:
        currency !== undefined && amount !== undefined && type !== 'subscription_cancelled'
          ? minorFromMajor(amount, currency, PSP, 'transaction amount')
          : undefined,
      currency,
      declineCode: failed ? (textAt(transaction, 'processor-response-code') ?? textAt(transaction, 'gateway-rejection-reason')) : undefined,
      networkCode: failed ? /^\s*([0-9A-Z]{2})\s*:/.exec(textAt(transaction, 'additional-processor-response') ?? '')?.[1] : undefined,
      adviceCode: failed ? textAt(transaction, 'merchant-advice-code') : undefined,
      network: textAt(transaction, 'credit-card/card-type')?.toLowerCase(),
      subscriptionId: textAt(subscription, 'id'),
    },
    customer: {
      providerCustomerId: textAt(transaction, 'customer/id'),
      email: textAt(transaction, 'customer/email'),
      name: joinName(textAt(transaction, 'customer/first-name'), textAt(transaction, 'customer/last-name')),
    },
  });
}

function normalise(request: InboundWebhook): NormalisedWebhookEvent[] {
  const { payload } = formFields(request.rawBody);
  if (!payload) throw new WebhookPayloadError('braintree webhook has no bt_payload');
  const notification = readNotification(payload);
  const kind = textAt(notification, 'kind');
  if (kind === undefined) throw new WebhookPayloadError('braintree notification has no <kind>');
  const type = KINDS.get(kind);
  return type === undefined ? [] : [fromSubscription(type, sha256Hex(payload), notification)];
}

export const braintreeWebhook: ProviderWebhook = { psp: PSP, verify, normalise };
