import { headerOf, hmacHex, safeEqualAny, withinTolerance } from './crypto';
import { type JsonObject, isObject, listAt, minorAmount, normalisedEvent, parseJsonObject, requiredObject, requiredText, text } from './json-payload';
import { lowercaseCurrency } from './provider-fields';
import {
  type InboundWebhook,
  type NormalisedWebhookEvent,
  type ProviderWebhook,
  TIMESTAMP_TOLERANCE_SECONDS,
  type Verification,
  type WebhookCredentials,
} from './types';

/**
 * Paddle Billing webhooks (https://developer.paddle.com/webhooks/signature-verification).
 *
 * **Secret**: `credentials.secret` holds the notification destination's secret key
 * (`pdl_ntfset_...`), used as-is as the HMAC key.
 *
 * **Verification**: `Paddle-Signature: ts=<unix seconds>;h1=<hex>`, where h1 is
 * HMAC-SHA256(secret, `${ts}:${rawBody}`) in hex. Every `h1` in the header is tried (Paddle may
 * send more than one while a secret rotates). `ts` must lie within ±TIMESTAMP_TOLERANCE_SECONDS of
 * `now`, in both directions (Paddle's SDK allows 5 s and only checks old ones; 300 s both ways is
 * the service's rule).
 *
 * **Events**: `transaction.payment_failed` → payment_failed (amount and `error_code` of the failed
 * attempt in `data.payments[]`), `transaction.completed` → payment_succeeded, `payment_method.saved`
 * → payment_method_updated, `subscription.canceled` → subscription_cancelled,
 * `adjustment.created` / `adjustment.updated` for an approved refund → charge_refunded; everything
 * else → [] (`transaction.past_due` and `subscription.past_due` describe the same failure as
 * `transaction.payment_failed`, so they are not counted twice). Paddle amounts are strings in
 * minor units already. Transaction payloads carry `customer_id` but no email.
 */
export const paddleWebhook: ProviderWebhook = {
  psp: 'paddle',
  verify: verifyPaddle,
  normalise: normalisePaddle,
};

function verifyPaddle(request: InboundWebhook, credentials: WebhookCredentials, now: Date): Verification {
  if (typeof credentials.secret !== 'string' || credentials.secret === '') return { ok: false, reason: 'no paddle secret configured' };
  const header = headerOf(request.headers, 'paddle-signature');
  if (header === undefined) return { ok: false, reason: 'missing Paddle-Signature header' };
  const signature = parseSignatureHeader(header);
  if (signature === undefined) return { ok: false, reason: 'malformed Paddle-Signature header' };
  if (!withinTolerance(Number(signature.ts), now, TIMESTAMP_TOLERANCE_SECONDS))
    return { ok: false, reason: 'Paddle-Signature timestamp is outside the tolerance' };
  const expected = hmacHex('sha256', credentials.secret, Buffer.concat([Buffer.from(`${signature.ts}:`, 'utf8'), request.rawBody]));
  return safeEqualAny(signature.h1, expected) ? { ok: true } : { ok: false, reason: 'Paddle-Signature does not match' };
}

function parseSignatureHeader(header: string): { ts: string; h1: string[] } | undefined {
  let ts: string | undefined;
  const h1: string[] = [];
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 'ts') ts = value;
    else if (key === 'h1' && value !== '') h1.push(value.toLowerCase());
  }
  return ts !== undefined && /^\d{1,12}$/.test(ts) && h1.length > 0 ? { ts, h1 } : undefined;
}

function normalisePaddle(request: InboundWebhook): NormalisedWebhookEvent[] {
  const body = parseJsonObject(request.rawBody, 'paddle');
  const providerEventId = requiredText(body, 'event_id', 'paddle');
  const eventType = requiredText(body, 'event_type', 'paddle');
  const occurredAt = text(body, 'occurred_at');
  const base = { psp: 'paddle' as const, providerEventId, occurredAt };

  switch (eventType) {
    case 'transaction.payment_failed': {
      const transaction = requiredObject(body, 'data', 'paddle');
      const attempt = latestFailedAttempt(transaction);
      return [
        normalisedEvent({
          ...base,
          type: 'payment_failed',
          payment: {
            ...transactionFields(transaction),
            amount: minorAmount(attempt, 'amount', 'paddle') ?? minorAmount(transaction, 'details.totals.grand_total', 'paddle'),
            declineCode: text(attempt, 'error_code'),
            network: text(attempt, 'method_details.card.type')?.toLowerCase(),
          },
          customer: { providerCustomerId: text(transaction, 'customer_id') },
        }),
      ];
    }
    case 'transaction.completed': {
      const transaction = requiredObject(body, 'data', 'paddle');
      return [
        normalisedEvent({
          ...base,
          type: 'payment_succeeded',
          payment: { ...transactionFields(transaction), amount: minorAmount(transaction, 'details.totals.grand_total', 'paddle') },
          customer: { providerCustomerId: text(transaction, 'customer_id') },
        }),
      ];
    }
    case 'payment_method.saved':
      return [normalisedEvent({ ...base, type: 'payment_method_updated', customer: { providerCustomerId: requiredText(body, 'data.customer_id', 'paddle') } })];
    case 'subscription.canceled': {
      const subscription = requiredObject(body, 'data', 'paddle');
      return [
        normalisedEvent({
          ...base,
          type: 'subscription_cancelled',
          payment: { subscriptionId: requiredText(subscription, 'id', 'paddle'), currency: lowercaseCurrency(subscription, 'currency_code', 'paddle') },
          customer: { providerCustomerId: text(subscription, 'customer_id') },
        }),
      ];
    }
    case 'adjustment.created':
    case 'adjustment.updated': {
      const adjustment = requiredObject(body, 'data', 'paddle');
      if (text(adjustment, 'action') !== 'refund' || text(adjustment, 'status') !== 'approved') return [];
      return [
        normalisedEvent({
          ...base,
          type: 'charge_refunded',
          payment: {
            providerPaymentId: requiredText(adjustment, 'transaction_id', 'paddle'),
            amount: minorAmount(adjustment, 'totals.total', 'paddle'),
            currency: lowercaseCurrency(adjustment, 'totals.currency_code', 'paddle') ?? lowercaseCurrency(adjustment, 'currency_code', 'paddle'),
            subscriptionId: text(adjustment, 'subscription_id'),
          },
          customer: { providerCustomerId: text(adjustment, 'customer_id') },
        }),
      ];
    }
    default:
      return [];
  }
}

function transactionFields(transaction: JsonObject): NonNullable<NormalisedWebhookEvent['payment']> {
  return {
    providerPaymentId: requiredText(transaction, 'id', 'paddle'),
    currency: lowercaseCurrency(transaction, 'currency_code', 'paddle'),
    invoiceId: text(transaction, 'invoice_id'),
    subscriptionId: text(transaction, 'subscription_id'),
  };
}

/** The most recent attempt with status `error` (Paddle lists attempts newest first; created_at decides). */
function latestFailedAttempt(transaction: JsonObject): JsonObject | undefined {
  const failed = listAt(transaction, 'payments')
    .filter((attempt): attempt is JsonObject => isObject(attempt) && text(attempt, 'status') === 'error')
    .map((attempt, index) => ({ attempt, index, createdAt: Date.parse(text(attempt, 'created_at') ?? '') }));
  failed.sort((a, b) => (Number.isNaN(b.createdAt) || Number.isNaN(a.createdAt) ? a.index - b.index : b.createdAt - a.createdAt));
  return failed[0]?.attempt;
}
