import { headerOf, hmacHex, safeEqual } from './crypto';
import { type JsonObject, isObject, listAt, normalisedEvent, parseJsonObject, requiredText, text } from './json-payload';
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
 * GoCardless webhooks (https://developer.gocardless.com/getting-started/staying-up-to-date-with-webhooks).
 *
 * **Secret**: `credentials.secret` holds the webhook endpoint's secret from the GoCardless
 * Dashboard (Developers → Webhook endpoints), used as-is as the HMAC key.
 *
 * **Verification**: `Webhook-Signature` is HMAC-SHA256(secret, rawBody) in hex, compared in
 * constant time (GoCardless asks for a 498 response on a mismatch; the route decides statuses).
 * GoCardless signs no time, so there is no replay window: events are deduplicated on their ids
 * (`EV...`), which are the `providerEventId`s.
 *
 * **Events** (a body carries several, `{ events: [...], meta: { webhook_id } }`), all thin: an
 * event names its resource in `links` but carries no amount, currency or email, so each
 * normalised event sets `fetch` to the resource that holds them.
 * - payments `failed`, `charged_back` → payment_failed, decline code `details.cause`
 *   (`insufficient_funds`, `bank_account_closed` ...); fetch the payment.
 * - payments `confirmed` → payment_succeeded; fetch the payment.
 * - mandates `replaced`, `transferred`, `reinstated` → payment_method_updated; fetch the mandate
 *   (the new one for `replaced`).
 * - subscriptions `cancelled` → subscription_cancelled; fetch the subscription.
 * - refunds `paid` → charge_refunded; fetch the refund.
 * Everything else → [] (`late_failure_settled`, `chargeback_settled` and `paid_out` are bookkeeping
 * for failures and payments already reported).
 */
export const gocardlessWebhook: ProviderWebhook = {
  psp: 'gocardless',
  verify: verifyGoCardless,
  normalise: normaliseGoCardless,
};

function verifyGoCardless(request: InboundWebhook, credentials: WebhookCredentials): Verification {
  if (typeof credentials.secret !== 'string' || credentials.secret === '') return { ok: false, reason: 'no gocardless secret configured' };
  const signature = headerOf(request.headers, 'webhook-signature');
  if (signature === undefined) return { ok: false, reason: 'missing Webhook-Signature header' };
  const expected = hmacHex('sha256', credentials.secret, request.rawBody);
  return safeEqual(signature.toLowerCase(), expected) ? { ok: true } : { ok: false, reason: 'Webhook-Signature does not match' };
}

type Mapping = { readonly type: NormalisedEventType; readonly resource: string; readonly link: string };

const MAPPINGS: Readonly<Record<string, Mapping>> = {
  'payments.failed': { type: 'payment_failed', resource: 'payment', link: 'payment' },
  'payments.charged_back': { type: 'payment_failed', resource: 'payment', link: 'payment' },
  'payments.confirmed': { type: 'payment_succeeded', resource: 'payment', link: 'payment' },
  'mandates.replaced': { type: 'payment_method_updated', resource: 'mandate', link: 'new_mandate' },
  'mandates.transferred': { type: 'payment_method_updated', resource: 'mandate', link: 'mandate' },
  'mandates.reinstated': { type: 'payment_method_updated', resource: 'mandate', link: 'mandate' },
  'subscriptions.cancelled': { type: 'subscription_cancelled', resource: 'subscription', link: 'subscription' },
  'refunds.paid': { type: 'charge_refunded', resource: 'refund', link: 'refund' },
};

function normaliseGoCardless(request: InboundWebhook): NormalisedWebhookEvent[] {
  const body = parseJsonObject(request.rawBody, 'gocardless');
  if (!Array.isArray(body.events)) throw new WebhookPayloadError('gocardless webhook has no events array');
  return listAt(body, 'events').flatMap((event) => {
    if (!isObject(event)) throw new WebhookPayloadError('gocardless webhook event is not an object');
    return normaliseEvent(event);
  });
}

function normaliseEvent(event: JsonObject): NormalisedWebhookEvent[] {
  const providerEventId = requiredText(event, 'id', 'gocardless');
  const key = `${requiredText(event, 'resource_type', 'gocardless')}.${requiredText(event, 'action', 'gocardless')}`;
  const mapping = MAPPINGS[key];
  if (mapping === undefined) return [];
  const fetchId = requiredText(event, `links.${mapping.link}`, 'gocardless');
  const isPayment = mapping.resource === 'payment';
  return [
    normalisedEvent({
      psp: 'gocardless',
      providerEventId,
      type: mapping.type,
      occurredAt: text(event, 'created_at'),
      payment: {
        providerPaymentId: isPayment ? fetchId : text(event, 'links.payment'),
        declineCode: mapping.type === 'payment_failed' ? text(event, 'details.cause') : undefined,
        subscriptionId: text(event, 'links.subscription'),
      },
      customer: { providerCustomerId: text(event, 'links.customer') },
      fetch: { resource: mapping.resource, id: fetchId },
    }),
  ];
}
