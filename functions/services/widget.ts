import { openSecret, sealSecret } from '#adapters/secret-box';
import { InvalidSignatureError } from '#core/errors';
import {
  type Branding,
  NO_BRANDING,
  newWidgetSecret,
  sha256Hex,
  timestampIsFresh,
  WIDGET_TIMESTAMP_TOLERANCE_SECONDS,
  widgetSignatureMatches,
} from '#core/hosted';
import type { CustomerRecord, OpenPaymentRef } from '#core/customers';
import { OPEN_STATUSES } from '#core/payments';
import { getCustomerByAnyId } from '#data/customer-repository';
import { customerPaymentsIn } from '#data/customer-queries';
import { getHostedSettings, setWidgetSecret, spendWidgetSignature } from '#data/hosted-settings-repository';
import { brandingOf } from './branding';
import { issueUpdatePaymentUrl } from './message-links';

/** The secret box's context of a widget secret: a sealed secret copied to another merchant does not open. */
const secretContext = (merchantId: string) => ({ merchant_id: merchantId, purpose: 'widget_secret' });

/**
 * Makes or rotates the merchant's widget secret (operator CLI): the new one verifies from now on,
 * the one before no longer. Stored sealed (an HMAC needs the secret itself); shown once, here.
 */
export async function rotateWidgetSecret(merchantId: string, now: Date = new Date()): Promise<{ merchant_id: string; widget_secret: string }> {
  const secret = newWidgetSecret();
  await setWidgetSecret(merchantId, await sealSecret(secret, secretContext(merchantId)), now);
  return { merchant_id: merchantId, widget_secret: secret };
}

/**
 * Opened secrets by merchant and sealed form, so that a warm function does not call KMS for every
 * init; a rotation seals anew, so a stale entry is never used. The merchant is part of the key: a
 * sealed value copied onto another merchant's settings must still go through the box, whose
 * context refuses it.
 */
const opened = new Map<string, string>();
const MAX_OPENED = 256;

async function widgetSecretOf(merchantId: string, sealed: string): Promise<string> {
  const cacheKey = `${merchantId}\n${sealed}`;
  const hit = opened.get(cacheKey);
  if (hit !== undefined) return hit;
  const secret = await openSecret(sealed, secretContext(merchantId));
  if (opened.size >= MAX_OPENED) opened.delete(opened.keys().next().value as string);
  opened.set(cacheKey, secret);
  return secret;
}

export interface WidgetInitRequest {
  readonly merchant_id: string;
  readonly customer_id: string;
  readonly timestamp: number;
  readonly signature: string;
}

const refused = (why: string, param: 'signature' | 'timestamp' = 'signature'): InvalidSignatureError =>
  new InvalidSignatureError(`The widget signature is not accepted: ${why}.`, { param });

/**
 * The widget's credential (DESIGN §1): a fresh timestamp (|now − timestamp| ≤ 300 s), the
 * merchant's hex HMAC-SHA256 over `merchant_id.customer_id.timestamp` (constant-time compare),
 * and a signature not accepted before (a conditional put of its hash, kept until the timestamp
 * goes stale). Every refusal is 401 `invalid_signature`; an unknown merchant and one without a
 * widget secret are refused alike.
 */
export async function verifyWidgetRequest(request: WidgetInitRequest, now: Date = new Date()): Promise<void> {
  if (!timestampIsFresh(request.timestamp, now))
    throw refused(`timestamp is more than ${WIDGET_TIMESTAMP_TOLERANCE_SECONDS} s from the server's time`, 'timestamp');
  const settings = await getHostedSettings(request.merchant_id);
  if (settings.widget_secret_sealed === null) throw refused('signature does not match');
  const secret = await widgetSecretOf(request.merchant_id, settings.widget_secret_sealed);
  if (!widgetSignatureMatches(secret, request.merchant_id, request.customer_id, request.timestamp, request.signature)) {
    throw refused('signature does not match');
  }
  const keepUntil = request.timestamp + WIDGET_TIMESTAMP_TOLERANCE_SECONDS + 60;
  if (!(await spendWidgetSignature(request.merchant_id, sha256Hex(request.signature.toLowerCase()), keepUntil, now))) {
    throw refused('this signature was used already (sign each page view anew)');
  }
}

/**
 * The customer's newest open payment: from the list its item carries (no further read), else (a
 * list not kept yet, or older open payments beyond it) from its payments.
 */
async function newestOpenPayment(customer: CustomerRecord): Promise<Pick<OpenPaymentRef, 'id' | 'amount' | 'currency'> | undefined> {
  if (customer.open_payments === 0) return undefined;
  const carried = customer.open_payment_refs?.[0];
  if (carried !== undefined) return carried;
  return (await customerPaymentsIn(customer.merchant_id, customer.id, OPEN_STATUSES))[0];
}

/** A's widget init response (unwrapped). */
export interface WidgetInitResponse {
  readonly has_failed_payment: boolean;
  readonly amount_cents: number;
  readonly currency: string | null;
  readonly update_url: string | null;
  readonly branding: Branding;
}

/**
 * What the widget shows a verified customer (`customer_id` ours or the provider's): the newest
 * open failed payment (pending, retrying or paused), its amount and currency, and a fresh
 * update-payment link for it; nothing owed for an unknown or erased customer.
 */
export async function widgetInit(merchantId: string, customerId: string, now: Date = new Date()): Promise<WidgetInitResponse> {
  const [customer, branding] = await Promise.all([getCustomerByAnyId(merchantId, customerId), brandingOf(merchantId, now)]);
  const payment = customer === undefined ? undefined : await newestOpenPayment(customer);
  const brand = branding ?? NO_BRANDING;
  if (customer === undefined || payment === undefined) return { has_failed_payment: false, amount_cents: 0, currency: null, update_url: null, branding: brand };
  const updateUrl = await issueUpdatePaymentUrl({ merchantId, customerId: customer.id, paymentId: payment.id, messageId: null }, now);
  return { has_failed_payment: true, amount_cents: payment.amount, currency: payment.currency, update_url: updateUrl, branding: brand };
}
