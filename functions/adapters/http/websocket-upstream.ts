import type { LookupFunction } from 'node:net';
import { AppError, ServiceUnavailableError, UpstreamError } from '#core/errors';
import { checkResolvedAddresses, hostOf, parseWebhookUrl } from '#core/webhooks/address-policy';
import { deliverSafely, pinnedLookup } from './safe-delivery';
import { webhookAddressPolicy, webhookResolver } from './webhook-delivery-config';

/**
 * The session proxy's upstream (`WS_UPSTREAM_URL`, read at call time; unset: 503). It is reached
 * only at public addresses, as outbound webhooks are (resolved now, connection pinned to the
 * resolved address, no redirects); `WEBHOOK_ALLOW_LOOPBACK=true` admits a loopback upstream in
 * the local stack only. A bad setting or an address refused is a 503 naming the setting, never
 * the upstream's answer.
 */

/** The upstream's origin and path prefix (no trailing slash). */
export function upstreamBaseUrl(): string {
  const raw = process.env.WS_UPSTREAM_URL?.trim();
  if (raw === undefined || raw === '') throw new ServiceUnavailableError('The session proxy is not configured: WS_UPSTREAM_URL unset.');
  return raw.replace(/\/+$/, '');
}

/** The answer of the upstream's token endpoint is bounded: a token is small. */
const MAX_TOKEN_RESPONSE_BYTES = 16 * 1024;
const UPSTREAM_TIMEOUT_MS = 10_000;

/**
 * Asks the upstream for a WebSocket token for the signed-in subject:
 * `POST <upstream>/v1/identity/websocket-token` with `{ subject, issuer }`; its answer must be
 * 2xx JSON `{ token: string }`. Anything else is 502 `upstream_error` (the upstream's body is not
 * passed on).
 */
export async function requestUpstreamToken(identity: { readonly subject: string; readonly issuer: string }): Promise<string> {
  const url = `${upstreamBaseUrl()}/v1/identity/websocket-token`;
  const result = await deliverSafely({
    url,
    headers: { 'user-agent': 'recovery-service-session-proxy/1', accept: 'application/json' },
    body: JSON.stringify({ subject: identity.subject, issuer: identity.issuer }),
    resolver: webhookResolver(),
    policy: webhookAddressPolicy(),
    timeoutMs: UPSTREAM_TIMEOUT_MS,
    maxResponseBytes: MAX_TOKEN_RESPONSE_BYTES,
    keepBody: true,
  });
  if (result.error === 'refused_address')
    throw new ServiceUnavailableError(`The session proxy is not configured: WS_UPSTREAM_URL is refused (${result.message ?? 'address'}).`);
  if (!result.success || result.body === undefined) {
    throw new UpstreamError(
      `The upstream did not issue a WebSocket token (${result.status === null ? (result.error ?? 'no answer') : `HTTP ${result.status}`}).`,
    );
  }
  let token: unknown;
  try {
    token = (JSON.parse(result.body) as { token?: unknown }).token;
  } catch {
    token = undefined;
  }
  if (typeof token !== 'string' || token === '' || token.length > 8192) throw new UpstreamError('The upstream answered without a WebSocket token.');
  return token;
}

export interface UpstreamSocketTarget {
  /** `ws://` or `wss://` URL of the database's subscribe endpoint. */
  readonly url: string;
  /** The resolved address the connection must go to (pass as the socket's `lookup`). */
  readonly lookup: LookupFunction;
}

/** Where to open the upstream socket of `<upstream>/v1/database/<name>/subscribe`, resolved and checked now. */
export async function upstreamSocketTarget(database: string): Promise<UpstreamSocketTarget> {
  const policy = webhookAddressPolicy();
  let url: URL;
  let addresses: string[];
  try {
    url = parseWebhookUrl(`${upstreamBaseUrl()}/v1/database/${encodeURIComponent(database)}/subscribe`, policy);
    addresses = await webhookResolver().resolve(hostOf(url));
    checkResolvedAddresses(url, addresses, policy);
  } catch (error) {
    if (error instanceof ServiceUnavailableError) throw error;
    const reason = error instanceof AppError ? error.message : 'its host does not resolve';
    throw new ServiceUnavailableError(`The session proxy's upstream cannot be reached: ${reason}.`, { cause: error });
  }
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return { url: url.href, lookup: pinnedLookup(addresses[0] as string) };
}
