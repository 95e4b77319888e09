import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InternalError, InvalidRequestError, InvalidSignatureError, ResourceNotFoundError } from '../../core/errors';
import { isPsp, type Psp } from '../../core/providers';
import { queueSender } from '../../adapters/queue-sender';
import { getMerchantCached } from '../../data/merchant-repository';
import { getProviderSecret } from '../../data/provider-secret-repository';
import { markWebhookEventEnqueued, PROVIDER_WEBHOOK_KIND, putWebhookLogOnce, type WebhookRouteVariant } from '../../data/webhook-log-repository';
import { env } from '../../shared/env';
import { rawBody } from '../../shared/http/parse-request';
import { meta } from '../../shared/http/responses';
import { logger } from '../../shared/logger';
import { webhookModuleFor } from '../../webhooks/registry';
import { type InboundWebhook, type NormalisedWebhookEvent, WebhookBodyFormatError } from '../../webhooks/types';
import { defineOperation } from '../operation';
import type { RouteDef } from '../route-types';
import { receiveProviderWebhookSchemas } from './schemas';

/** The provider and variant of a row: its path's first segment (`/square/{merchant_id}/invoice` is square's invoice variant). */
export function providerOfRoute(route: RouteDef): { psp: Psp; variant: WebhookRouteVariant } {
  const [, first, , last] = route.path.split('/');
  if (first === undefined || !isPsp(first)) throw new InternalError(`Route ${route.path} names no provider`);
  return { psp: first, variant: last === 'invoice' ? 'invoice' : 'default' };
}

const lowercased = (headers: APIGatewayProxyEvent['headers']): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (typeof value === 'string') out[name.toLowerCase()] = value;
  return out;
};

/** The query string as sent, rebuilt from the (decoded) parameters API Gateway passes. */
function queryOf(event: APIGatewayProxyEvent): string {
  const multi = event.multiValueQueryStringParameters ?? {};
  const pairs = Object.entries(multi).flatMap(([name, values]) => (values ?? []).map((value) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`));
  if (pairs.length === 0) {
    const single = Object.entries(event.queryStringParameters ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined);
    pairs.push(...single.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`));
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/**
 * The public URL the provider posted to: WEBHOOK_PUBLIC_BASE_URL + path + query when configured
 * (behind API Gateway's own host or a CDN, the Host header is not the URL the provider knows),
 * else `${X-Forwarded-Proto ?? 'https'}://${Host}${path}` + query.
 */
export function publicUrlOf(event: APIGatewayProxyEvent, headers: Readonly<Record<string, string>>): string {
  const base = env.WEBHOOK_PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? `${headers['x-forwarded-proto'] ?? 'https'}://${headers.host ?? ''}`;
  return `${base}${event.path}${queryOf(event)}`;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * What makes two deliveries the same provider event, as a digest: the provider event ids of the
 * events the body normalises to (sorted; a batch, such as Adyen's, is the set of its items), else,
 * for a body the service does not use or cannot read, the body itself. Undefined when the body
 * may announce a later state with the same bytes: a thin event identified only by the digest of
 * its body (Mollie's classic `id=tr_…`, posted again on each status change of the payment), whose
 * every delivery is stored and deduplicated downstream after the fetch, on the fetched status.
 * A body the provider's own format cannot parse is 400 (after the signature check).
 */
function eventIdentityOf(psp: Psp, request: InboundWebhook): string | undefined {
  let events: NormalisedWebhookEvent[] | undefined;
  try {
    events = webhookModuleFor(psp).normalise(request);
  } catch (error) {
    if (error instanceof WebhookBodyFormatError) throw new InvalidRequestError(`The body is not a ${psp} webhook payload: ${error.message}.`);
    // Anything else is the consumer's to report (dead-lettered, redrivable): keyed by the body.
    events = undefined;
  }
  if (events === undefined || events.length === 0) return sha256(Buffer.concat([Buffer.from('body\n'), request.rawBody]));
  const bodyDigest = sha256(request.rawBody);
  if (events.some((event) => event.fetch !== undefined && event.providerEventId === bodyDigest)) return undefined;
  return sha256(`events\n${[...new Set(events.map((event) => event.providerEventId))].sort().join('\n')}`);
}

// Same message for both, so a caller cannot tell which merchants exist or what they configured.
const notFound = (): ResourceNotFoundError => new ResourceNotFoundError('No webhook endpoint is configured at this URL.');

/**
 * POST /{psp}/{merchant_id} (13 providers) and POST /square/{merchant_id}/invoice: verifies the
 * delivery with the provider's own scheme and the merchant's secret for it, over the body exactly
 * as received; stores it once per provider event (30 days, erasable with its customer; see
 * eventIdentityOf) and enqueues it for the inbound-webhooks consumer; answers 200 `{ received:
 * true, id }`. A replay of an event already stored stores nothing, is not enqueued again, and
 * answers 200 with the first delivery's id. An unknown merchant or a provider without a secret is
 * 404 (the same answer), a bad, missing or stale signature 401 `invalid_signature` with nothing
 * stored, then a signed body the provider's format cannot parse (not JSON; for Braintree, a
 * form whose bt_payload is not XML) 400 `invalid_request` with nothing stored; bodies over 256 KB
 * are refused (400) before this runs. Never logs bodies, headers or secrets.
 */
export const receiveProviderWebhook = defineOperation(receiveProviderWebhookSchemas, async ({ event, route, params, requestId }) => {
  const { psp, variant } = providerOfRoute(route);
  const merchantId = params.merchant_id;
  const log = logger.child({ request_id: requestId, merchant_id: merchantId, psp });
  const merchant = await getMerchantCached(merchantId);
  if (merchant === undefined) throw notFound();
  const secret = await getProviderSecret(merchantId, psp);
  if (secret === undefined) throw notFound();

  const headers = lowercased(event.headers);
  const request: InboundWebhook = { rawBody: rawBody(event) ?? Buffer.alloc(0), headers, url: publicUrlOf(event, headers) };
  const now = new Date();
  const verification = await webhookModuleFor(psp).verify(request, { secret: secret.secret }, now);
  if (!verification.ok) {
    log.info('provider webhook refused', { reason: verification.reason });
    throw new InvalidSignatureError('The webhook signature is missing, invalid or outside the allowed time window.');
  }

  const identity = eventIdentityOf(psp, request);
  const delivery = { merchantId, psp, routeVariant: variant, rawBody: request.rawBody, contentType: headers['content-type'] ?? null, url: request.url };
  // Without an identity (a body that may announce a later state), a digest unique to this delivery.
  const eventIdentity = identity ?? sha256(`delivery\n${requestId}\n${now.toISOString()}`);
  const stored = await putWebhookLogOnce({ ...delivery, eventIdentity }, now);
  if (!stored.enqueued) {
    await queueSender.send('inbound-webhooks', { kind: PROVIDER_WEBHOOK_KIND, merchant_id: merchantId, psp, webhook_log_id: stored.id });
    await markWebhookEventEnqueued(merchantId, psp, eventIdentity);
  }
  log.info(stored.created ? 'provider webhook accepted' : 'provider webhook replayed; already stored', { webhook_log_id: stored.id, variant, enqueued_now: !stored.enqueued });
  return { body: { data: { received: true, id: stored.id }, meta: meta(requestId, merchantId, now) } };
});
