import { hmacBase64, hmacHex, safeEqual, safeEqualAny, withinTolerance } from '../../webhooks/crypto';

/**
 * Signature schemes of the delivery callbacks: the service's OWN messaging and email providers
 * (not the merchants'), so each is keyed by one service-wide secret from the environment.
 * Pure functions of the request and the secret: no I/O, every comparison in constant time.
 */

/** Seconds a signed timestamp may be away from our clock, both ways (Mailgun, Standard Webhooks). */
export const CALLBACK_TOLERANCE_SECONDS = 300;

export type Verification = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const ok: Verification = { ok: true };
const refuse = (reason: string): Verification => ({ ok: false, reason });

/**
 * The string Twilio signs for a form-encoded POST: the full URL the callback was posted to (with
 * its query string), then every POST parameter sorted by name (then value, for repeated names),
 * each as name immediately followed by value, no separators.
 */
export function twilioSignedContent(url: string, params: URLSearchParams): string {
  const entries = [...params.entries()].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return url + entries.map(([name, value]) => `${name}${value}`).join('');
}

/**
 * Twilio-style status callbacks (SMS, WhatsApp): `X-Twilio-Signature` = base64 HMAC-SHA1 of
 * {@link twilioSignedContent}, keyed by the account's auth token. Twilio signs no timestamp, so
 * there is no tolerance window; a replay can only repeat an event, which is idempotent.
 *
 * @example verifyTwilioSignature('https://hooks.example.com/api/v1/messaging/status', new URLSearchParams(body), headers['x-twilio-signature'], token)
 */
export function verifyTwilioSignature(url: string, params: URLSearchParams, signature: string | undefined, authToken: string): Verification {
  if (signature === undefined) return refuse('missing X-Twilio-Signature');
  const expected = hmacBase64('sha1', authToken, Buffer.from(twilioSignedContent(url, params), 'utf8'));
  return safeEqual(expected, signature) ? ok : refuse('signature mismatch');
}

/** The `signature` object Mailgun puts in the body of a webhook. */
export interface MailgunSignature {
  readonly timestamp: string;
  readonly token: string;
  readonly signature: string;
}

/**
 * Mailgun-style webhooks (legacy email): the JSON body carries `signature: { timestamp, token,
 * signature }`; `signature` = hex HMAC-SHA256 of `timestamp + token` (no separator) keyed by the
 * webhook signing key; `timestamp` (unix seconds) must be within ±{@link CALLBACK_TOLERANCE_SECONDS}.
 * Mailgun's scheme does not cover `event-data`: a captured signature could be replayed with other
 * event data inside the window. TLS keeps signatures from being captured; a single-use token
 * cache (Mailgun's own suggestion) is not implemented.
 */
export function verifyMailgunSignature(signed: MailgunSignature | undefined, signingKey: string, now: Date): Verification {
  if (signed === undefined) return refuse('missing signature object');
  if (!/^\d{1,12}$/.test(signed.timestamp)) return refuse('malformed timestamp');
  if (!withinTolerance(Number(signed.timestamp), now, CALLBACK_TOLERANCE_SECONDS)) return refuse('timestamp outside tolerance');
  const expected = hmacHex('sha256', signingKey, Buffer.from(`${signed.timestamp}${signed.token}`, 'utf8'));
  return safeEqual(expected, signed.signature.toLowerCase()) ? ok : refuse('signature mismatch');
}

/** The key of a Standard Webhooks secret: base64 after `whsec_` (a secret without the prefix is base64 as a whole). */
export const standardWebhooksKey = (secret: string): Buffer => Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');

/** The three Standard Webhooks headers (lowercased names); Svix's `svix-*` names are accepted too. */
export interface StandardWebhookHeaders {
  readonly id: string | undefined;
  readonly timestamp: string | undefined;
  readonly signature: string | undefined;
}

/**
 * Standard Webhooks (the scheme of Svix, used by Resend and others), for the mailer:
 * `webhook-signature` holds space-separated `v1,<base64>` entries, each a base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<raw body>` keyed by the base64-decoded `whsec_` secret; one
 * matching entry suffices (secret rotation); `webhook-timestamp` (unix seconds) must be within
 * ±{@link CALLBACK_TOLERANCE_SECONDS}. See https://www.standardwebhooks.com/.
 */
export function verifyStandardWebhook(headers: StandardWebhookHeaders, rawBody: Buffer, secret: string, now: Date): Verification {
  const { id, timestamp, signature } = headers;
  if (id === undefined || timestamp === undefined || signature === undefined) return refuse('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,12}$/.test(timestamp)) return refuse('malformed timestamp');
  if (!withinTolerance(Number(timestamp), now, CALLBACK_TOLERANCE_SECONDS)) return refuse('timestamp outside tolerance');
  const content = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), rawBody]);
  const expected = hmacBase64('sha256', standardWebhooksKey(secret), content);
  const candidates = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => entry.slice(3));
  return candidates.length > 0 && safeEqualAny(candidates, expected) ? ok : refuse('signature mismatch');
}
