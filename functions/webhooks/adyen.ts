import { createHmac } from 'node:crypto';
import { headerOf, safeEqual } from './crypto';
import { type JsonObject, at, isObject, listAt, minorAmount, normalisedEvent, objectAt, parseJsonObject, text } from './json-payload';
import {
  type InboundWebhook,
  type NormalisedEventType,
  type NormalisedWebhookEvent,
  type ProviderWebhook,
  type Verification,
  type WebhookCredentials,
  WebhookPayloadError,
} from './types';

/**
 * Adyen standard webhooks (docs.adyen.com/development-resources/webhooks/secure-webhooks/verify-hmac-signatures;
 * @adyen/api-library `src/utils/hmacValidator.ts`).
 *
 * **credentials.secret** holds the webhook's HMAC key as the Customer Area shows it (hex), or, when
 * the webhook also has Basic authentication, `<hmacKeyHex>:<username>:<password>` (the hex key has
 * no colon; the password may).
 *
 * Verification: each NotificationRequestItem carries `additionalData.hmacSignature`, the base64
 * HMAC-SHA256, keyed by the hex-decoded key, of
 * `pspReference:originalReference:merchantAccountCode:merchantReference:amount.value:amount.currency:eventCode:success`
 * (absent fields empty). Every item of a batch must verify. With Basic credentials configured, the
 * `Authorization: Basic` header must match too. No time is signed, so there is no tolerance;
 * replays are caught by deduplicating on pspReference + eventCode + success.
 */

const PSP = 'adyen';

/** Adyen's refusalReason texts (docs.adyen.com/development-resources/refusal-reasons) to refusalReasonCode. */
const REFUSAL_REASON_CODES: ReadonlyMap<string, string> = new Map([
  ['refused', '2'],
  ['referral', '3'],
  ['acquirer error', '4'],
  ['blocked card', '5'],
  ['expired card', '6'],
  ['invalid amount', '7'],
  ['invalid card number', '8'],
  ['issuer unavailable', '9'],
  ['not supported', '10'],
  ['3d not authenticated', '11'],
  ['not enough balance', '12'],
  ['acquirer fraud', '14'],
  ['fraud', '20'],
  ['fraud-cancelled', '22'],
  ['transaction not permitted', '23'],
  ['cvc declined', '24'],
  ['restricted card', '25'],
  ['revocation of auth', '26'],
  ['declined non generic', '27'],
  ['withdrawal amount exceeded', '28'],
  ['withdrawal count exceeded', '29'],
  ['issuer suspected fraud', '31'],
  ['authentication required', '38'],
  ['transaction blocked by adyen to prevent excessive retry fees', '46'],
]);

type Credentials = { readonly hmacKey: Buffer; readonly basic?: string };

function parseSecret(secret: string): Credentials | undefined {
  const separator = secret.indexOf(':');
  const hex = separator === -1 ? secret : secret.slice(0, separator);
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return undefined;
  const basic = separator === -1 ? '' : secret.slice(separator + 1);
  return { hmacKey: Buffer.from(hex, 'hex'), basic: basic === '' ? undefined : basic };
}

const field = (item: JsonObject, path: string): string => {
  const value = at(item, path);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
};

/** The string Adyen signs for one NotificationRequestItem. */
const adyenSignedString = (item: JsonObject): string =>
  ['pspReference', 'originalReference', 'merchantAccountCode', 'merchantReference', 'amount.value', 'amount.currency', 'eventCode', 'success']
    .map((path) => field(item, path))
    .join(':');

function itemVerifies(item: JsonObject, hmacKey: Buffer): boolean {
  const received = text(item, 'additionalData.hmacSignature');
  if (received === undefined) return false;
  const expected = createHmac('sha256', hmacKey).update(adyenSignedString(item), 'utf8').digest();
  return safeEqual(Buffer.from(received, 'base64'), expected);
}

function basicAuthMatches(headers: InboundWebhook['headers'], expected: string): boolean {
  const match = /^basic\s+(\S+)$/i.exec(headerOf(headers, 'authorization') ?? '');
  return match?.[1] !== undefined && safeEqual(Buffer.from(match[1], 'base64').toString('utf8'), expected);
}

/** The NotificationRequestItems of a standard webhook body, or undefined when it is not one. */
function notificationItems(body: unknown): JsonObject[] | undefined {
  const items = listAt(body, 'notificationItems').map((entry) => objectAt(entry, 'NotificationRequestItem'));
  return items.length > 0 && items.every(isObject) ? (items as JsonObject[]) : undefined;
}

function verify(request: InboundWebhook, credentials: WebhookCredentials, _now: Date): Verification {
  const parsed = parseSecret(credentials.secret);
  if (parsed === undefined) return { ok: false, reason: 'the Adyen HMAC key is not configured as hex' };
  if (parsed.basic !== undefined && !basicAuthMatches(request.headers, parsed.basic)) {
    return { ok: false, reason: 'missing or wrong Basic authentication' };
  }
  let body: unknown;
  try {
    body = JSON.parse(request.rawBody.toString('utf8'));
  } catch {
    return { ok: false, reason: 'body is not JSON' };
  }
  const items = notificationItems(body);
  if (items === undefined) return { ok: false, reason: 'body has no NotificationRequestItem to verify' };
  if (items.some((item) => text(item, 'additionalData.hmacSignature') === undefined)) return { ok: false, reason: 'missing additionalData.hmacSignature' };
  return items.every((item) => itemVerifies(item, parsed.hmacKey)) ? { ok: true } : { ok: false, reason: 'hmacSignature does not match the notification' };
}

/** "51 : Insufficient funds" → "51", "01" → "01": a leading code with a digit in it, else undefined. */
const leadingCode = (value: string | undefined): string | undefined => /^\s*((?=[0-9A-Z]{0,3}\d)[0-9A-Z]{1,4})(?:\s*[:\s-]|$)/.exec(value ?? '')?.[1];

/** additionalData keys are flat, dots included ("recurring.shopperReference"). */
const additional = (data: JsonObject | undefined, key: string): string | undefined => text(data?.[key]);

/** Adyen's paymentMethod ("visa", "mc", "mccredit", "amex") as a card network name. */
const networkOf = (paymentMethod: string | undefined): string | undefined => {
  if (paymentMethod === undefined) return undefined;
  const method = paymentMethod.toLowerCase();
  if (method.startsWith('mc') || method.startsWith('maestro')) return 'mastercard';
  return method.startsWith('visa') ? 'visa' : method;
};

function typeOf(item: JsonObject): NormalisedEventType | undefined {
  const success = field(item, 'success') === 'true';
  switch (field(item, 'eventCode')) {
    case 'AUTHORISATION':
      return success ? 'payment_succeeded' : 'payment_failed';
    case 'AUTORESCUE':
      return success ? 'payment_succeeded' : undefined;
    case 'REFUND':
      return success ? 'charge_refunded' : undefined;
    default:
      return undefined;
  }
}

function fromItem(type: NormalisedEventType, item: JsonObject): NormalisedWebhookEvent {
  const pspReference = text(item, 'pspReference');
  if (pspReference === undefined) throw new WebhookPayloadError('adyen notification item has no pspReference');
  const failed = type === 'payment_failed';
  const reason = text(item, 'reason');
  const data = objectAt(item, 'additionalData');
  return normalisedEvent({
    psp: PSP,
    providerEventId: `${pspReference}:${field(item, 'eventCode')}:${field(item, 'success')}`,
    type,
    occurredAt: text(item, 'eventDate'),
    payment: {
      providerPaymentId: type === 'charge_refunded' ? (text(item, 'originalReference') ?? pspReference) : pspReference,
      amount: minorAmount(item, 'amount.value', PSP),
      currency: text(item, 'amount.currency')?.toLowerCase(),
      declineCode: failed && reason !== undefined ? (REFUSAL_REASON_CODES.get(reason.toLowerCase()) ?? reason) : undefined,
      networkCode: failed ? leadingCode(additional(data, 'refusalReasonRaw')) : undefined,
      adviceCode: failed ? leadingCode(additional(data, 'merchantAdviceCode')) : undefined,
      network: networkOf(text(item, 'paymentMethod')),
    },
    customer: {
      providerCustomerId:
        additional(data, 'shopperReference') ?? additional(data, 'recurring.shopperReference') ?? additional(data, 'tokenization.shopperReference'),
      email: additional(data, 'shopperEmail'),
      name: additional(data, 'shopperName'),
    },
  });
}

function normalise(request: InboundWebhook): NormalisedWebhookEvent[] {
  const items = notificationItems(parseJsonObject(request.rawBody, PSP));
  if (items === undefined) throw new WebhookPayloadError('adyen webhook has no notificationItems');
  return items.flatMap((item) => {
    const type = typeOf(item);
    return type === undefined ? [] : [fromItem(type, item)];
  });
}

export const adyenWebhook: ProviderWebhook = { psp: PSP, verify, normalise };
