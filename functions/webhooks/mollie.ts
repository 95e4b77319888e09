import { headerOf, hmacHex, safeEqualAny, sha256Hex } from './crypto';
import { type JsonObject, joinName, majorAmount, normalisedEvent, objectAt, parseJsonObject, requiredText, text } from './json-payload';
import { lowercaseCurrency } from './provider-fields';
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
 * Mollie webhooks. Mollie runs two systems side by side, and this module takes both.
 *
 * **Secret**: `credentials.secret` holds the signing secret of the merchant's next-gen webhook
 * subscription (shown when the webhook is created in the Dashboard or via `POST /v2/webhooks`),
 * used as-is as the HMAC key. Classic webhooks use no secret.
 *
 * **Next-gen webhooks** (https://docs.mollie.com/reference/webhooks-new): a JSON event
 * `{ resource: 'event', id, type, entityId, createdAt, _embedded?: { entity } }` signed with
 * `X-Mollie-Signature: sha256=<hex HMAC-SHA256(secret, rawBody)>`. The `sha256=` prefix is
 * optional, as in Mollie's PHP SignatureValidator, and during a secret rotation several
 * signatures may arrive (comma-joined); any match is enough. Mollie signs no time: events are
 * deduplicated on their id (`event_...`). A JSON body without the header is refused.
 *
 * **Classic webhooks** (https://docs.mollie.com/reference/webhooks) are unsigned: Mollie posts the
 * form body `id=tr_...` and nothing else, and its documented way to verify one is to fetch the
 * payment with the merchant's API key. Such a body is accepted without a signature because it
 * states nothing: it becomes one thin event whose `fetch` names the payment, and the payment's
 * state, amount and customer must come from that fetch, never from the body. Its `type` is only
 * provisional (`payment_failed`, the reason the service listens): whoever fetches decides the real
 * one from the payment's status (`failed` → payment_failed, `paid` → payment_succeeded, others
 * none). Its `providerEventId` is the sha256 of the body, so it is the same for every call about
 * that payment (Mollie calls again on each status change): deduplicate thin Mollie events on the
 * fetched status, not on this id alone. Only payment ids (`tr_`) are accepted; any other unsigned
 * body is refused.
 *
 * **Events** (next-gen): `payment.failed` → payment_failed (decline code
 * `details.failureReason` for cards, `details.bankReasonCode` for SEPA Direct Debit),
 * `chargeback.received` → payment_failed (https://docs.mollie.com/reference/chargebacks-api-webhooks:
 * a collected payment taken back, a reversed direct debit or a card dispute, so for recovery the
 * payment failed after all; decline code its `reason.code`), `payment.paid` → payment_succeeded,
 * `refund.refunded` → charge_refunded (https://docs.mollie.com/reference/refunds-api-webhooks: the
 * money went back to the customer); everything else → []. With the "simple" payload (no
 * `_embedded.entity`) the event is thin and `fetch` names the entity. Mollie's API fetches a
 * chargeback or refund only under its payment (`GET /v2/payments/{paymentId}/refunds/{id}`), and a
 * simple event carries only `entityId` and `_links.entity.href`, the entity's API URL
 * (`…/v2/payments/tr_…/refunds/re_…`, https://docs.mollie.com/reference/get-webhook-event), so
 * their `fetch.id` is `<paymentId>/<entityId>` with the payment taken from that link; a simple
 * chargeback or refund event without it cannot be fetched and is a WebhookPayloadError. Amounts
 * are major-unit strings (`"10.00"`) converted to minor units. Mollie has no webhook for cancelled
 * subscriptions or changed mandates, so this module never emits subscription_cancelled or
 * payment_method_updated.
 */
export const mollieWebhook: ProviderWebhook = {
  psp: 'mollie',
  verify: verifyMollie,
  normalise: normaliseMollie,
};

const USED_EVENT_TYPES: ReadonlySet<string> = new Set(['payment.failed', 'payment.paid', 'chargeback.received', 'refund.refunded']);

const CLASSIC_BODY = /^id=(tr_[A-Za-z0-9]{1,64})$/;

function classicPaymentId(rawBody: Buffer): string | undefined {
  return CLASSIC_BODY.exec(rawBody.toString('latin1').trim())?.[1];
}

function verifyMollie(request: InboundWebhook, credentials: WebhookCredentials): Verification {
  const header = headerOf(request.headers, 'x-mollie-signature');
  if (header === undefined) {
    return classicPaymentId(request.rawBody) !== undefined ? { ok: true } : { ok: false, reason: 'missing X-Mollie-Signature header' };
  }
  if (typeof credentials.secret !== 'string' || credentials.secret === '') return { ok: false, reason: 'no mollie signing secret configured' };
  const presented = header
    .split(',')
    .map((value) =>
      value
        .trim()
        .replace(/^sha256=/i, '')
        .toLowerCase(),
    )
    .filter((value) => value !== '');
  const expected = hmacHex('sha256', credentials.secret, request.rawBody);
  return safeEqualAny(presented, expected) ? { ok: true } : { ok: false, reason: 'X-Mollie-Signature does not match' };
}

function normaliseMollie(request: InboundWebhook): NormalisedWebhookEvent[] {
  const paymentId = classicPaymentId(request.rawBody);
  if (paymentId !== undefined) {
    return [
      normalisedEvent({
        psp: 'mollie',
        providerEventId: sha256Hex(request.rawBody),
        type: 'payment_failed',
        payment: { providerPaymentId: paymentId },
        fetch: { resource: 'payment', id: paymentId },
      }),
    ];
  }

  const body = parseJsonObject(request.rawBody, 'mollie');
  const resource = text(body, 'resource');
  if (resource !== undefined && resource !== 'event') throw new WebhookPayloadError('mollie webhook body is neither a classic id nor a next-gen event');
  const base = { psp: 'mollie' as const, providerEventId: requiredText(body, 'id', 'mollie'), occurredAt: text(body, 'createdAt') };
  const eventType = requiredText(body, 'type', 'mollie');
  if (!USED_EVENT_TYPES.has(eventType)) return [];
  const entityId = requiredText(body, 'entityId', 'mollie');
  const entity = objectAt(body, '_embedded.entity');

  switch (eventType) {
    case 'payment.failed':
    case 'payment.paid': {
      const type = eventType === 'payment.failed' ? 'payment_failed' : 'payment_succeeded';
      if (entity === undefined)
        return [normalisedEvent({ ...base, type, payment: { providerPaymentId: entityId }, fetch: { resource: 'payment', id: entityId } })];
      return [
        normalisedEvent({
          ...base,
          type,
          payment: {
            ...paymentFields(entity, entityId),
            declineCode: type === 'payment_failed' ? (text(entity, 'details.failureReason') ?? text(entity, 'details.bankReasonCode')) : undefined,
          },
          customer: {
            email: text(entity, 'billingAddress.email'),
            name:
              text(entity, 'details.cardHolder') ??
              text(entity, 'details.consumerName') ??
              joinName(text(entity, 'billingAddress.givenName'), text(entity, 'billingAddress.familyName')),
            providerCustomerId: text(entity, 'customerId'),
          },
        }),
      ];
    }
    case 'chargeback.received': {
      if (entity === undefined) return [thinUnderPayment(base, 'payment_failed', 'chargeback', body, entityId)];
      return [
        normalisedEvent({
          ...base,
          type: 'payment_failed',
          payment: { ...amountOf(entity), providerPaymentId: text(entity, 'paymentId'), declineCode: text(entity, 'reason.code') },
        }),
      ];
    }
    case 'refund.refunded': {
      if (entity === undefined) return [thinUnderPayment(base, 'charge_refunded', 'refund', body, entityId)];
      return [normalisedEvent({ ...base, type: 'charge_refunded', payment: { ...amountOf(entity), providerPaymentId: text(entity, 'paymentId') } })];
    }
    default:
      return [];
  }
}

/** The payment (`tr_…`) a chargeback's or refund's `_links.entity.href` names it under. */
const ENTITY_UNDER_PAYMENT = /\/v2\/payments\/(tr_[A-Za-z0-9]+)\/(?:chargebacks|refunds)\/[A-Za-z0-9_]+\/?$/;

/** A thin chargeback or refund event: fetched as `<paymentId>/<entityId>` (see above). */
function thinUnderPayment(
  base: Pick<NormalisedWebhookEvent, 'psp' | 'providerEventId' | 'occurredAt'>,
  type: NormalisedEventType,
  resource: 'chargeback' | 'refund',
  body: JsonObject,
  entityId: string,
): NormalisedWebhookEvent {
  const href = text(body, '_links.entity.href');
  const path = href !== undefined && URL.canParse(href) ? new URL(href).pathname : undefined;
  const paymentId = path === undefined ? undefined : ENTITY_UNDER_PAYMENT.exec(path)?.[1];
  if (paymentId === undefined) throw new WebhookPayloadError(`mollie ${resource} event without embedded entity names no payment in _links.entity`);
  return normalisedEvent({ ...base, type, payment: { providerPaymentId: paymentId }, fetch: { resource, id: `${paymentId}/${entityId}` } });
}

function paymentFields(payment: JsonObject, entityId: string): NonNullable<NormalisedWebhookEvent['payment']> {
  return {
    ...amountOf(payment),
    providerPaymentId: text(payment, 'id') ?? entityId,
    network: text(payment, 'details.cardLabel')?.toLowerCase(),
    subscriptionId: text(payment, 'subscriptionId'),
  };
}

function amountOf(entity: JsonObject): { amount?: number; currency?: string } {
  const currency = lowercaseCurrency(entity, 'amount.currency', 'mollie');
  if (currency === undefined) return {};
  return { amount: majorAmount(entity, 'amount.value', currency, 'mollie'), currency };
}
