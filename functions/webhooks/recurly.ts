import { headerOf, hmacHex, safeEqualAny, sha256Hex, withinTolerance } from './crypto';
import { type JsonObject, isObject, joinName, minorAmount, normalisedEvent, parseJsonObject, requiredObject, requiredText, text } from './json-payload';
import { lowercaseCurrency } from './provider-fields';
import {
  type InboundWebhook,
  type NormalisedEventType,
  type NormalisedWebhookEvent,
  type ProviderWebhook,
  TIMESTAMP_TOLERANCE_SECONDS,
  type Verification,
  type WebhookCredentials,
  WebhookPayloadError,
} from './types';

/**
 * Recurly JSON webhooks (https://docs.recurly.com/recurly-subscriptions/docs/signature-verification).
 *
 * **Secret**: `credentials.secret` holds the webhook endpoint's secret key from Recurly's Webhook
 * Endpoints page, used as-is as the HMAC key.
 *
 * **Verification**: `recurly-signature: <unix time in ms>,<hex>[,<hex>]` where each hex is
 * HMAC-SHA256(secret, `${timestamp}.${rawBody}`); two signatures arrive for 24 h after a key
 * rotation and either may match (Recurly's Ruby and Go clients do the same). The timestamp must lie
 * within ±TIMESTAMP_TOLERANCE_SECONDS of `now`, both ways, as in those clients. Recurly documents
 * milliseconds; a value below 10^12 is read as seconds, since one of Recurly's own examples shows a
 * 10-digit value. XML webhooks are unsigned and are refused (no header). Recurly's Node client has
 * no verifier, so this follows the Ruby client's `Recurly::Webhooks.verify_signature`.
 *
 * **Events**, two JSON shapes:
 * - Recurly's documented JSON notifications are thin, `{ id, object_type, event_type, event_time,
 *   uuid, account_code? }`: `payment.failed` → payment_failed, `payment.succeeded` →
 *   payment_succeeded, `payment.refunded` → charge_refunded (fetch the transaction
 *   `uuid-<uuid>`), `subscription.canceled` → subscription_cancelled (fetch the subscription),
 *   `billing_info.updated` → payment_method_updated (fetch the account `code-<account_code>`).
 *   Amount, currency, email and `status_code` come from the fetch. `providerEventId` is
 *   `<id>:<object_type>.<event_type>:<event_time>`, stable across redeliveries whether `id` names
 *   the notification or the object.
 * - The full notifications (`{ "failed_payment_notification": { account, transaction } }`, the
 *   JSON form of the documented XML notifications, with `amount_in_cents` and
 *   `gateway_error_codes`): failed_payment → payment_failed (decline code
 *   `gateway_error_codes`), successful_payment → payment_succeeded, successful_refund →
 *   charge_refunded, canceled_subscription → subscription_cancelled, billing_info_updated →
 *   payment_method_updated. They carry no event id, so `providerEventId` is the body's sha256.
 * Everything else → [] (`charge_invoice.past_due` and dunning events restate a failed payment).
 */
export const recurlyWebhook: ProviderWebhook = {
  psp: 'recurly',
  verify: verifyRecurly,
  normalise: normaliseRecurly,
};

function verifyRecurly(request: InboundWebhook, credentials: WebhookCredentials, now: Date): Verification {
  if (typeof credentials.secret !== 'string' || credentials.secret === '') return { ok: false, reason: 'no recurly secret configured' };
  const header = headerOf(request.headers, 'recurly-signature');
  if (header === undefined) return { ok: false, reason: 'missing recurly-signature header' };
  const [timestamp = '', ...signatures] = header.split(',').map((part) => part.trim());
  const presented = signatures.filter((signature) => signature !== '').map((signature) => signature.toLowerCase());
  if (!/^\d{1,16}$/.test(timestamp) || presented.length === 0) return { ok: false, reason: 'malformed recurly-signature header' };
  const value = Number(timestamp);
  if (!withinTolerance(value >= 1e12 ? value / 1000 : value, now, TIMESTAMP_TOLERANCE_SECONDS))
    return { ok: false, reason: 'recurly-signature timestamp is outside the tolerance' };
  const expected = hmacHex('sha256', credentials.secret, Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), request.rawBody]));
  return safeEqualAny(presented, expected) ? { ok: true } : { ok: false, reason: 'recurly-signature does not match' };
}

type ThinMapping = { readonly type: NormalisedEventType; readonly resource: 'transaction' | 'subscription' | 'account' };

const THIN: Readonly<Record<string, ThinMapping>> = {
  'payment.failed': { type: 'payment_failed', resource: 'transaction' },
  'payment.succeeded': { type: 'payment_succeeded', resource: 'transaction' },
  'payment.refunded': { type: 'charge_refunded', resource: 'transaction' },
  'subscription.canceled': { type: 'subscription_cancelled', resource: 'subscription' },
  'billing_info.updated': { type: 'payment_method_updated', resource: 'account' },
};

const FULL: Readonly<Record<string, NormalisedEventType>> = {
  failed_payment_notification: 'payment_failed',
  successful_payment_notification: 'payment_succeeded',
  successful_refund_notification: 'charge_refunded',
  canceled_subscription_notification: 'subscription_cancelled',
  billing_info_updated_notification: 'payment_method_updated',
};

function normaliseRecurly(request: InboundWebhook): NormalisedWebhookEvent[] {
  const body = parseJsonObject(request.rawBody, 'recurly');
  if (body.object_type !== undefined || body.event_type !== undefined) return normaliseThin(body);
  const keys = Object.keys(body);
  const name = keys[0];
  if (keys.length !== 1 || name === undefined || !name.endsWith('_notification') || !isObject(body[name])) {
    throw new WebhookPayloadError('recurly webhook is neither a JSON notification nor a *_notification object');
  }
  const type = FULL[name];
  return type === undefined ? [] : [normaliseFull(type, requiredObject(body, name, 'recurly'), sha256Hex(request.rawBody))];
}

function normaliseThin(body: JsonObject): NormalisedWebhookEvent[] {
  const objectType = requiredText(body, 'object_type', 'recurly');
  const eventType = requiredText(body, 'event_type', 'recurly');
  const mapping = THIN[`${objectType}.${eventType}`];
  if (mapping === undefined) return [];
  const id = requiredText(body, 'id', 'recurly');
  const eventTime = text(body, 'event_time');
  const accountCode = text(body, 'account_code');
  const base = {
    psp: 'recurly' as const,
    providerEventId: `${id}:${objectType}.${eventType}:${eventTime ?? ''}`,
    type: mapping.type,
    occurredAt: eventTime,
    customer: { providerCustomerId: accountCode },
  };

  if (mapping.resource === 'account') {
    return [normalisedEvent({ ...base, fetch: { resource: 'account', id: `code-${requiredText(body, 'account_code', 'recurly')}` } })];
  }
  const uuid = requiredText(body, 'uuid', 'recurly');
  const payment = mapping.resource === 'subscription' ? { subscriptionId: uuid } : { providerPaymentId: uuid };
  return [normalisedEvent({ ...base, payment, fetch: { resource: mapping.resource, id: `uuid-${uuid}` } })];
}

function normaliseFull(type: NormalisedEventType, notification: JsonObject, providerEventId: string): NormalisedWebhookEvent {
  const account = requiredObject(notification, 'account', 'recurly');
  const customer = {
    email: text(account, 'email'),
    name: joinName(text(account, 'first_name'), text(account, 'last_name')) ?? text(account, 'company_name'),
    providerCustomerId: requiredText(account, 'account_code', 'recurly'),
  };
  if (type === 'payment_method_updated') return normalisedEvent({ psp: 'recurly', providerEventId, type, customer });
  if (type === 'subscription_cancelled') {
    const subscription = requiredObject(notification, 'subscription', 'recurly');
    return normalisedEvent({
      psp: 'recurly',
      providerEventId,
      type,
      occurredAt: text(subscription, 'canceled_at'),
      payment: { subscriptionId: requiredText(subscription, 'uuid', 'recurly') },
      customer,
    });
  }
  const transaction = requiredObject(notification, 'transaction', 'recurly');
  return normalisedEvent({
    psp: 'recurly',
    providerEventId,
    type,
    occurredAt: text(transaction, 'date'),
    payment: {
      providerPaymentId: requiredText(transaction, 'id', 'recurly'),
      amount: minorAmount(transaction, 'amount_in_cents', 'recurly'),
      currency: lowercaseCurrency(transaction, 'currency', 'recurly'),
      declineCode: type === 'payment_failed' ? text(transaction, 'gateway_error_codes') : undefined,
      invoiceId: text(transaction, 'invoice_id') ?? text(transaction, 'invoice_number'),
      subscriptionId: text(transaction, 'subscription_id'),
    },
    customer,
  });
}
