import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InternalError, InvalidRequestError, InvalidSignatureError, ResourceNotFoundError } from '#core/errors';
import { isPsp, type Psp } from '#core/providers';
import { queueSender } from '#adapters/queue-sender';
import { countSignatureFailure } from '#data/integration-health-repository';
import { getMerchantCached } from '#data/merchant-repository';
import { getProviderSecret } from '#data/provider-secret-repository';
import { markWebhookEventEnqueued, PROVIDER_WEBHOOK_KIND, putWebhookLogOnce, type WebhookRouteVariant } from '#data/webhook-log-repository';
import { logger } from '#shared/logger';
import { webhookModuleFor } from '#webhooks/registry';
import { type InboundWebhook, type NormalisedWebhookEvent, WebhookBodyFormatError } from '#webhooks/types';
import { defineOperation, type SignedPrincipal } from '#api/operation';
import { lowercasedHeaders } from '#api/pipeline/headers';
import { decodePathParameters, rawBody } from '#api/pipeline/parse-request';
import { publicUrlOf } from '#api/pipeline/request-url';
import { meta } from '#api/pipeline/responses';
import type { RouteDef } from '#api/route-types';
import { receiveProviderWebhookSchemas } from './schemas';

/** The provider and variant of a row: its path's first segment (`/square/{merchant_id}/invoice` is square's invoice variant). */
export function providerOfRoute(route: RouteDef): { psp: Psp; variant: WebhookRouteVariant } {
  const [, first, , last] = route.path.split('/');
  if (first === undefined || !isPsp(first)) throw new InternalError(`Route ${route.path} names no provider`);
  return { psp: first, variant: last === 'invoice' ? 'invoice' : 'default' };
}

// Same message for both, so a caller cannot tell which merchants exist or what they configured.
const notFound = (): ResourceNotFoundError => new ResourceNotFoundError('No webhook endpoint is configured at this URL.', { param: 'merchant_id' });

/** A merchant id can only be this (`merch_` and base62; operator-made ids stay within it): anything else names no endpoint. */
const MERCHANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** What the signature check established: the merchant, its provider, and the delivery as received. */
export interface ProviderWebhookPrincipal extends SignedPrincipal {
  readonly merchantId: string;
  readonly psp: Psp;
  readonly variant: WebhookRouteVariant;
  readonly webhook: InboundWebhook;
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

/**
 * The provider_signature authenticator of these rows: the delivery is verified with the provider's
 * own scheme and the merchant's secret for it, over the body exactly as received. An unknown
 * merchant or a provider without a secret is 404 (the same answer), a bad, missing or stale
 * signature 401 `invalid_signature`, counted in the merchant's hourly signature-failure counter
 * for the provider (integration health). Never logs bodies, headers or secrets.
 */
export async function verifyProviderWebhook(event: APIGatewayProxyEvent, route: RouteDef): Promise<ProviderWebhookPrincipal> {
  const { psp, variant } = providerOfRoute(route);
  // The pipeline's own decoding and id rule (400 for broken percent-encoding, 404 for an impossible id), then a merchant id's shape.
  const merchantId = decodePathParameters(event).merchant_id ?? '';
  if (!MERCHANT_ID.test(merchantId)) throw notFound();
  const merchant = await getMerchantCached(merchantId);
  if (merchant === undefined) throw notFound();
  const secret = await getProviderSecret(merchantId, psp);
  if (secret === undefined) throw notFound();

  const headers = lowercasedHeaders(event);
  const webhook: InboundWebhook = { rawBody: rawBody(event) ?? Buffer.alloc(0), headers, url: publicUrlOf(event, headers) };
  const verification = await webhookModuleFor(psp).verify(webhook, { secret: secret.secret }, new Date());
  if (!verification.ok) {
    logger.info('provider webhook refused', { request_id: event.requestContext.requestId, merchant_id: merchantId, psp, reason: verification.reason });
    // Counted for the integration health routes: one unconditional ADD, nothing of the delivery kept.
    // A failure to count never changes the answer.
    await countSignatureFailure(merchantId, psp).catch((error: unknown) =>
      logger.warn('signature failure not counted', { request_id: event.requestContext.requestId, merchant_id: merchantId, psp, error: String(error) }),
    );
    throw new InvalidSignatureError('The webhook signature is missing, invalid or outside the allowed time window.');
  }
  return { kind: 'provider_signature', sender: psp, merchantId, psp, variant, webhook };
}

/**
 * POST /{psp}/{merchant_id} (13 providers) and POST /square/{merchant_id}/invoice, once the
 * pipeline has verified the delivery (`verifyProviderWebhook`): stores it once per provider event
 * (30 days, erasable with its customer; see eventIdentityOf) and enqueues it for the
 * inbound-webhooks consumer; answers 200 `{ received: true, id }`. A replay of an event already
 * stored stores nothing, is not enqueued again, and answers 200 with the first delivery's id. A
 * signed body the provider's format cannot parse (not JSON; for Braintree, a form whose bt_payload
 * is not XML) is 400 `invalid_request` with nothing stored; bodies over 256 KB are refused (400)
 * before this runs. Never logs bodies, headers or secrets.
 */
export const receiveProviderWebhook = defineOperation(
  { auth: 'provider_signature', schemas: receiveProviderWebhookSchemas, verify: verifyProviderWebhook },
  async ({ principal, requestId }) => {
    const { merchantId, psp, variant, webhook } = principal;
    const now = new Date();
    const identity = eventIdentityOf(psp, webhook);
    const delivery = {
      merchantId,
      psp,
      routeVariant: variant,
      rawBody: webhook.rawBody,
      contentType: webhook.headers['content-type'] ?? null,
      url: webhook.url,
    };
    // Without an identity (a body that may announce a later state), a digest unique to this delivery.
    const eventIdentity = identity ?? sha256(`delivery\n${requestId}\n${now.toISOString()}`);
    const stored = await putWebhookLogOnce({ ...delivery, eventIdentity }, now);
    if (!stored.enqueued) {
      await queueSender.send('inbound-webhooks', { kind: PROVIDER_WEBHOOK_KIND, merchant_id: merchantId, psp, webhook_log_id: stored.id });
      await markWebhookEventEnqueued(merchantId, psp, eventIdentity);
    }
    const outcome = stored.created ? 'provider webhook accepted' : 'provider webhook replayed; already stored';
    logger.info(outcome, { request_id: requestId, merchant_id: merchantId, psp, webhook_log_id: stored.id, variant, enqueued_now: !stored.enqueued });
    return { body: { data: { received: true, id: stored.id }, meta: meta(requestId, merchantId, now) } };
  },
);
