import { createHmac, randomBytes } from 'node:crypto';
import { readSecret } from '#adapters/secrets';
import { newLinkToken, sha256Hex, UPDATE_PAYMENT_LINK_TTL_SECONDS } from '#core/hosted';
import type { MessageRecord } from '#core/messages';
import { putUpdatePaymentLink } from '#data/update-payment-token-repository';
import { signUnsubscribeToken, type UnsubscribeClaims, verifyUnsubscribeToken } from '#core/unsubscribe-token';
import { env } from '#shared/env';

let key: Promise<Buffer> | undefined;

/** A key of its own derived from the list-cursor key (HMAC with a label), so one secret serves both without reuse. */
const derived = (secret: string): Buffer => createHmac('sha256', secret).update('recovery/unsubscribe-token-key/v1').digest();

/**
 * The unsubscribe key: UNSUBSCRIBE_SIGNING_SECRET, or the Secrets Manager secret
 * UNSUBSCRIBE_SIGNING_SECRET_ARN names; else derived from the list-cursor key
 * (CURSOR_SIGNING_SECRET, or CURSOR_SIGNING_SECRET_ARN: on AWS the edge API and the notifications
 * consumer both hold it), read once per cold start; locally, with none set, a key of this process
 * (the local stack sends and serves the links in one process; links of a previous run then answer 404).
 */
function unsubscribeKey(): Promise<Buffer> {
  key ??= (async () => {
    if (env.UNSUBSCRIBE_SIGNING_SECRET !== undefined) return Buffer.from(env.UNSUBSCRIBE_SIGNING_SECRET, 'utf8');
    if (env.UNSUBSCRIBE_SIGNING_SECRET_ARN !== undefined) return Buffer.from(await readSecret(env.UNSUBSCRIBE_SIGNING_SECRET_ARN), 'utf8');
    if (env.CURSOR_SIGNING_SECRET !== undefined) return derived(env.CURSOR_SIGNING_SECRET);
    if (env.CURSOR_SIGNING_SECRET_ARN !== undefined) return derived(await readSecret(env.CURSOR_SIGNING_SECRET_ARN));
    return randomBytes(32);
  })();
  return key;
}

/**
 * The edge API's public origin, read at call time (the local stack sets it once its server
 * listens; CDK sets it on AWS). Unset: the local stack's default origin.
 */
export function edgeOrigin(): string {
  const origin = process.env.EDGE_PUBLIC_BASE_URL || env.EDGE_PUBLIC_BASE_URL || `http://127.0.0.1:${process.env.PORT || '3000'}`;
  return origin.replace(/\/+$/, '');
}

export interface MessageLinks {
  readonly update_payment_url: string;
  readonly unsubscribe_url: string;
}

/** Whom an update-payment link is for: the customer and the open payment, and the message carrying it (null for the widget's). */
export interface UpdatePaymentLinkSubject {
  readonly merchantId: string;
  readonly customerId: string;
  readonly paymentId: string | null;
  readonly messageId: string | null;
}

/**
 * A new update-payment link (`GET /update-payment/{token}` on the edge host, or under
 * UPDATE_PAYMENT_BASE_URL when set): 32 random bytes, stored only as their SHA-256 with whom the
 * link is for, valid {@link UPDATE_PAYMENT_LINK_TTL_SECONDS} (30 days).
 */
export async function issueUpdatePaymentUrl(subject: UpdatePaymentLinkSubject, now: Date = new Date()): Promise<string> {
  const token = newLinkToken();
  await putUpdatePaymentLink(
    {
      merchant_id: subject.merchantId,
      customer_id: subject.customerId,
      payment_id: subject.paymentId,
      message_id: subject.messageId,
      created_at: now.toISOString(),
      expires_at: Math.floor(now.getTime() / 1000) + UPDATE_PAYMENT_LINK_TTL_SECONDS,
    },
    sha256Hex(token),
  );
  const updateBase = (process.env.UPDATE_PAYMENT_BASE_URL ?? env.UPDATE_PAYMENT_BASE_URL ?? `${edgeOrigin()}/update-payment`).replace(/\/+$/, '');
  return `${updateBase}/${token}`;
}

/** The links every message carries: its recipient's one-click unsubscribe, and where to update the payment method (a link of its own). */
export async function linksFor(message: MessageRecord): Promise<MessageLinks> {
  const origin = edgeOrigin();
  const token = signUnsubscribeToken(
    { merchantId: message.merchant_id, customerId: message.customer_id, channel: message.channel, messageId: message.id },
    await unsubscribeKey(),
  );
  const updatePaymentUrl = await issueUpdatePaymentUrl({
    merchantId: message.merchant_id,
    customerId: message.customer_id,
    paymentId: message.payment_id,
    messageId: message.id,
  });
  return { unsubscribe_url: `${origin}/unsubscribe/${token}`, update_payment_url: updatePaymentUrl };
}

/** The claims of a genuine unsubscribe token, else undefined. */
export async function readUnsubscribeToken(token: string): Promise<UnsubscribeClaims | undefined> {
  return verifyUnsubscribeToken(token, await unsubscribeKey());
}
