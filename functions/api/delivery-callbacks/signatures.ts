import { hmacBase64, hmacHex, safeEqual, safeEqualAny, withinTolerance } from '#webhooks/crypto';

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
 * The URLs a Twilio signature may have been computed over, for the URL we rebuilt: that URL
 * first, then, when its authority has no port, the same URL with the scheme's default port added
 * (`https` → `:443`, `http` → `:80`), or, when it has exactly that default port, the URL without
 * it. Twilio does not always sign the URL in the same form, so its own validator accepts either
 * (twilio-node's `validateRequest` tries `removePort(url)` and `addPort(url)`:
 * https://github.com/twilio/twilio-node/blob/main/src/webhooks/webhooks.ts; the scheme itself is
 * described at https://www.twilio.com/docs/usage/webhooks/webhooks-security). The rest of the URL
 * (path, query) is kept character for character: it is what Twilio signed.
 *
 * Unlike twilio-node, which strips any port, a non-default port (`:8443`, or `:80` on https) is
 * kept as it is: a URL on another port is another endpoint, not another spelling of this one.
 *
 * @example twilioUrlVariants('https://hooks.example.com/api/v1/messaging/status')
 * // ['https://hooks.example.com/api/v1/messaging/status', 'https://hooks.example.com:443/api/v1/messaging/status']
 */
export function twilioUrlVariants(url: string): string[] {
  const match = /^(https?):\/\/([^/?#]*)/i.exec(url);
  if (match === null) return [url];
  const [prefix, scheme, authority] = match as unknown as [string, string, string];
  const rest = url.slice(prefix.length);
  const userInfoEnd = authority.lastIndexOf('@');
  const userInfo = authority.slice(0, userInfoEnd + 1);
  const hostAndPort = authority.slice(userInfoEnd + 1);
  // In an IPv6 literal ([::1]:443) the port's colon is the first one after the closing bracket.
  const portStart = hostAndPort.indexOf(':', hostAndPort.lastIndexOf(']') + 1);
  const host = portStart === -1 ? hostAndPort : hostAndPort.slice(0, portStart);
  const port = portStart === -1 ? undefined : hostAndPort.slice(portStart + 1);
  const defaultPort = scheme.toLowerCase() === 'https' ? '443' : '80';
  const origin = `${scheme}://${userInfo}${host}`;
  if (port === undefined) return [url, `${origin}:${defaultPort}${rest}`];
  if (port === defaultPort) return [url, `${origin}${rest}`];
  return [url];
}

/**
 * Twilio-style status callbacks (SMS, WhatsApp): `X-Twilio-Signature` = base64 HMAC-SHA1 of
 * {@link twilioSignedContent}, keyed by the account's auth token, over the URL as rebuilt or its
 * default-port variant ({@link twilioUrlVariants}); every candidate is compared in constant time,
 * and all of them are compared whichever matches. Twilio signs no timestamp, so there is no
 * tolerance window; a replay can only repeat an event, which is idempotent.
 *
 * @example verifyTwilioSignature('https://hooks.example.com/api/v1/messaging/status', new URLSearchParams(body), headers['x-twilio-signature'], token)
 */
export function verifyTwilioSignature(url: string, params: URLSearchParams, signature: string | undefined, authToken: string): Verification {
  if (signature === undefined) return refuse('missing X-Twilio-Signature');
  const expected = twilioUrlVariants(url).map((candidate) => hmacBase64('sha1', authToken, Buffer.from(twilioSignedContent(candidate, params), 'utf8')));
  return safeEqualAny(expected, signature) ? ok : refuse('signature mismatch');
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
 * event data inside the window. This function checks the signature only; the caller then spends
 * the token once (functions/data/callback-token-repository.ts), as Mailgun suggests ("cache the
 * token value locally and not honor any subsequent request with the same token",
 * https://documentation.mailgun.com/docs/mailgun/user-manual/webhooks/securing-webhooks).
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
