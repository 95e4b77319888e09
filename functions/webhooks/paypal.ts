import { X509Certificate, verify as verifySignature } from 'node:crypto';
import { headerOf } from './crypto';
import {
  type JsonObject,
  isObject,
  joinName,
  listAt,
  majorAmount,
  normalisedEvent,
  objectAt,
  parseJsonObject,
  requiredObject,
  requiredText,
  text,
} from './json-payload';
import {
  type InboundWebhook,
  type NormalisedEventType,
  type NormalisedWebhookEvent,
  type ProviderWebhook,
  TIMESTAMP_TOLERANCE_SECONDS,
  type Verification,
  type WebhookCredentials,
} from './types';

/**
 * PayPal webhooks (developer.paypal.com/api/rest/webhooks/rest, "Verify the signature" offline).
 *
 * **credentials.secret** holds the webhook id PayPal assigned to this endpoint (Developer Dashboard
 * > Apps > Webhooks, e.g. `8PT597110X687430LKGECATA`): it is part of what PayPal signs.
 *
 * Verification: `PAYPAL-TRANSMISSION-SIG` is a base64 RSA-SHA256 (PKCS#1 v1.5) signature over
 * `${PAYPAL-TRANSMISSION-ID}|${PAYPAL-TRANSMISSION-TIME}|${webhook id}|${crc32(raw body)}` (unsigned
 * decimal CRC-32), checked with the public key of the X.509 certificate at `PAYPAL-CERT-URL`. That
 * URL must be https on one of PayPal's API hosts (PAYPAL_CERT_HOSTS), under PayPal's certificate
 * path `/v1/notifications/certs/` (a fetcher built by createCertificateFetcher with `allowedOrigins`,
 * which only tests do, admits those origins instead), or the delivery is refused before anything
 * is fetched; the certificate must be valid at `now`. The transmission time is
 * signed, so it must lie within ±TIMESTAMP_TOLERANCE_SECONDS of `now` (PayPal signs each retry
 * afresh).
 */

const PSP = 'paypal';

/** PayPal's own API hosts, the only places a signing certificate is fetched from. */
export const PAYPAL_CERT_HOSTS: readonly string[] = ['api.paypal.com', 'api.sandbox.paypal.com', 'api-m.paypal.com', 'api-m.sandbox.paypal.com'];

/**
 * Port: the PEM text of the certificate at an (already allow-listed) URL. A fetcher may carry the
 * rule it fetches under (`admits`, as createCertificateFetcher's do), which verification then
 * applies before fetching; without one, only PayPal certificate URLs (isPaypalCertUrl) are admitted.
 */
export type CertificateFetcher = ((url: string) => Promise<string>) & { readonly admits?: (url: string) => boolean };

/** Whether a PAYPAL-CERT-URL may be fetched at all: https, default port, no credentials, a PayPal API host, PayPal's certificate path. */
export function isPaypalCertUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'https:' &&
    url.port === '' &&
    url.username === '' &&
    url.password === '' &&
    PAYPAL_CERT_HOSTS.includes(url.hostname) &&
    url.pathname.startsWith('/v1/notifications/certs/')
  );
}

const CRC32_TABLE: readonly number[] = Array.from({ length: 256 }, (_, index) => {
  let crc = index;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc >>> 0;
});

/** CRC-32 (IEEE 802.3, as zlib) of the bytes, unsigned. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC32_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether `value` is a certificate URL on one of `allowedOrigins` (exact origins, e.g.
 * `http://127.0.0.1:40123`): same origin, no credentials, PayPal's certificate path.
 */
function isCertUrlOn(allowedOrigins: readonly string[], value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.username === '' && url.password === '' && allowedOrigins.includes(url.origin) && url.pathname.startsWith('/v1/notifications/certs/');
}

/**
 * A certificate fetcher: no redirects, a 5 s timeout, and a cache per URL (a PayPal certificate
 * URL names one certificate, so a copy is reused for a day; failed downloads are not cached, so the
 * next delivery tries again). It fetches only URLs its rule admits, and carries that rule as
 * `admits`: by default isPaypalCertUrl (https on PAYPAL_CERT_HOSTS); `allowedOrigins` replaces it
 * with those exact origins, which only tests pass (a loopback server serving a test certificate).
 */
export function createCertificateFetcher({
  allowedOrigins,
  fetchImpl = fetch,
}: {
  readonly allowedOrigins?: readonly string[];
  readonly fetchImpl?: typeof fetch;
} = {}): CertificateFetcher {
  const admits = allowedOrigins === undefined ? isPaypalCertUrl : (url: string) => isCertUrlOn(allowedOrigins, url);
  const refusal = allowedOrigins === undefined ? 'certificate URL is not on a PayPal API host' : 'certificate URL is not on an allowed origin';
  const cache = new Map<string, { readonly pem: Promise<string>; readonly at: number }>();
  const fetchCertificate = (url: string): Promise<string> => {
    if (!admits(url)) return Promise.reject(new Error(refusal));
    const cached = cache.get(url);
    if (cached && Date.now() - cached.at < ONE_DAY_MS) return cached.pem;
    const pem = fetchImpl(url, { redirect: 'error', signal: AbortSignal.timeout(5000) }).then(async (response) => {
      if (!response.ok) throw new Error(`certificate download failed with HTTP ${response.status}`);
      const body = await response.text();
      if (body.length > 64 * 1024 || !body.includes('-----BEGIN CERTIFICATE-----')) throw new Error('certificate download is not a PEM certificate');
      return body;
    });
    cache.set(url, { pem, at: Date.now() });
    pem.catch(() => cache.delete(url));
    return pem;
  };
  return Object.assign(fetchCertificate, { admits });
}

/** The production certificate fetcher: https URLs on PAYPAL_CERT_HOSTS only (createCertificateFetcher without allowedOrigins). */
export function createPaypalCertificateFetcher(fetchImpl: typeof fetch = fetch): CertificateFetcher {
  return createCertificateFetcher({ fetchImpl });
}

async function verifyWith(fetchCertificate: CertificateFetcher, request: InboundWebhook, credentials: WebhookCredentials, now: Date): Promise<Verification> {
  if (!credentials.secret) return { ok: false, reason: 'no PayPal webhook id is configured' };
  const transmissionId = headerOf(request.headers, 'paypal-transmission-id');
  const transmissionTime = headerOf(request.headers, 'paypal-transmission-time');
  const signature = headerOf(request.headers, 'paypal-transmission-sig');
  const certUrl = headerOf(request.headers, 'paypal-cert-url');
  if (!transmissionId || !transmissionTime || !signature || !certUrl) return { ok: false, reason: 'missing PAYPAL-TRANSMISSION-* or PAYPAL-CERT-URL header' };
  const algorithm = headerOf(request.headers, 'paypal-auth-algo');
  if (algorithm !== undefined && algorithm !== 'SHA256withRSA') return { ok: false, reason: 'unsupported PAYPAL-AUTH-ALGO' };
  if (!(fetchCertificate.admits ?? isPaypalCertUrl)(certUrl)) return { ok: false, reason: 'PAYPAL-CERT-URL is not an https URL on a PayPal API host' };
  const sentAt = Date.parse(transmissionTime);
  if (Number.isNaN(sentAt)) return { ok: false, reason: 'PAYPAL-TRANSMISSION-TIME is not a date' };
  if (Math.abs(now.getTime() - sentAt) > TIMESTAMP_TOLERANCE_SECONDS * 1000) {
    return { ok: false, reason: `PAYPAL-TRANSMISSION-TIME is more than ${TIMESTAMP_TOLERANCE_SECONDS} s from now` };
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(await fetchCertificate(certUrl));
  } catch {
    return { ok: false, reason: 'the PayPal signing certificate could not be fetched or read' };
  }
  if (now < new Date(certificate.validFrom) || now > new Date(certificate.validTo))
    return { ok: false, reason: 'the PayPal signing certificate is not valid now' };
  const message = `${transmissionId}|${transmissionTime}|${credentials.secret}|${crc32(request.rawBody)}`;
  try {
    const valid = verifySignature('sha256', Buffer.from(message, 'utf8'), certificate.publicKey, Buffer.from(signature, 'base64'));
    return valid ? { ok: true } : { ok: false, reason: 'PAYPAL-TRANSMISSION-SIG does not match' };
  } catch {
    return { ok: false, reason: 'PAYPAL-TRANSMISSION-SIG could not be checked' };
  }
}

type Envelope = { readonly id: string; readonly occurredAt?: string };

/** A PayPal money object: { value, currency_code } (v2) or { total, currency } (v1 sales). */
function money(value: unknown): { readonly amount?: number; readonly currency?: string } {
  if (!isObject(value)) return {};
  const currency = text(value, 'currency_code') ?? text(value, 'currency');
  if (currency === undefined) return {};
  const field = text(value, 'value') !== undefined ? 'value' : 'total';
  return { amount: majorAmount(value, field, currency, PSP), currency: currency.toLowerCase() };
}

function fromSubscription(type: NormalisedEventType, envelope: Envelope, subscription: JsonObject): NormalisedWebhookEvent {
  const failedPayment = objectAt(subscription, 'billing_info.last_failed_payment');
  const paid = type === 'payment_failed' ? money(objectAt(failedPayment, 'amount')) : {};
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type,
    occurredAt: envelope.occurredAt,
    payment: {
      ...paid,
      declineCode: type === 'payment_failed' ? text(failedPayment, 'reason_code') : undefined,
      subscriptionId: text(subscription, 'id'),
    },
    customer: {
      providerCustomerId: text(subscription, 'subscriber.payer_id'),
      email: text(subscription, 'subscriber.email_address'),
      name: joinName(text(subscription, 'subscriber.name.given_name'), text(subscription, 'subscriber.name.surname')),
    },
  });
}

/** The capture a v2 refund belongs to, from its `up` link (…/v2/payments/captures/{id}). */
const capturedId = (refund: JsonObject): string | undefined => {
  const up = listAt(refund, 'links').find((link) => text(link, 'rel') === 'up');
  return /\/captures\/([^/?#]+)/.exec(text(up, 'href') ?? '')?.[1];
};

function fromPayment(type: NormalisedEventType, envelope: Envelope, resource: JsonObject): NormalisedWebhookEvent {
  const refunded = type === 'charge_refunded';
  return normalisedEvent({
    psp: PSP,
    providerEventId: envelope.id,
    type,
    occurredAt: envelope.occurredAt,
    payment: {
      ...money(objectAt(resource, 'amount')),
      providerPaymentId: refunded ? (text(resource, 'sale_id') ?? capturedId(resource) ?? text(resource, 'id')) : text(resource, 'id'),
      declineCode: type === 'payment_failed' ? text(resource, 'processor_response.response_code') : undefined,
      adviceCode:
        type === 'payment_failed' ? (text(resource, 'processor_response.payment_advice_code') ?? text(resource, 'processor_response.advice_code')) : undefined,
      subscriptionId: text(resource, 'billing_agreement_id'),
    },
    customer: { providerCustomerId: text(resource, 'payer.payer_id'), email: text(resource, 'payer.email_address') },
  });
}

const SUBSCRIPTION_EVENTS: ReadonlyMap<string, NormalisedEventType> = new Map<string, NormalisedEventType>([
  ['BILLING.SUBSCRIPTION.PAYMENT.FAILED', 'payment_failed'],
  ['BILLING.SUBSCRIPTION.CANCELLED', 'subscription_cancelled'],
  ['BILLING.SUBSCRIPTION.EXPIRED', 'subscription_cancelled'],
]);

const PAYMENT_EVENTS: ReadonlyMap<string, NormalisedEventType> = new Map<string, NormalisedEventType>([
  ['PAYMENT.SALE.DENIED', 'payment_failed'],
  ['PAYMENT.CAPTURE.DENIED', 'payment_failed'],
  ['PAYMENT.CAPTURE.DECLINED', 'payment_failed'],
  ['PAYMENT.SALE.COMPLETED', 'payment_succeeded'],
  ['PAYMENT.CAPTURE.COMPLETED', 'payment_succeeded'],
  ['PAYMENT.SALE.REFUNDED', 'charge_refunded'],
  ['PAYMENT.CAPTURE.REFUNDED', 'charge_refunded'],
]);

function normalise(request: InboundWebhook): NormalisedWebhookEvent[] {
  const event = parseJsonObject(request.rawBody, PSP);
  const envelope: Envelope = { id: requiredText(event, 'id', PSP), occurredAt: text(event, 'create_time') };
  const eventType = requiredText(event, 'event_type', PSP);
  const subscriptionType = SUBSCRIPTION_EVENTS.get(eventType);
  if (subscriptionType !== undefined) return [fromSubscription(subscriptionType, envelope, requiredObject(event, 'resource', PSP))];
  const paymentType = PAYMENT_EVENTS.get(eventType);
  if (paymentType !== undefined) return [fromPayment(paymentType, envelope, requiredObject(event, 'resource', PSP))];
  return [];
}

/** A PayPal webhook module that reads signing certificates through `fetchCertificate`. */
export function createPaypalWebhook({ fetchCertificate }: { readonly fetchCertificate: CertificateFetcher }): ProviderWebhook {
  return { psp: PSP, verify: (request, credentials, now) => verifyWith(fetchCertificate, request, credentials, now), normalise };
}

export const paypalWebhook: ProviderWebhook = createPaypalWebhook({ fetchCertificate: createPaypalCertificateFetcher() });

export default paypalWebhook;
