import { InternalError, InvalidSignatureError, ResourceNotFoundError } from '../../core/errors';
import { isPsp, type Psp } from '../../core/providers';
import { queueSender } from '../../adapters/queue-sender';
import { getMerchantCached } from '../../data/merchant-repository';
import { getProviderSecret } from '../../data/provider-secret-repository';
import { PROVIDER_WEBHOOK_KIND, putWebhookLog, type WebhookRouteVariant } from '../../data/webhook-log-repository';
import { rawBody } from '../pipeline/parse-request';
import { lowercasedHeaders, publicUrlOf } from '../pipeline/request-url';
import { meta } from '../pipeline/responses';
import { logger } from '../../shared/logger';
import { webhookModuleFor } from '../../webhooks/registry';
import type { InboundWebhook } from '../../webhooks/types';
import { defineOperation } from '../operation';
import type { RouteDef } from '../route-types';
import { receiveProviderWebhookSchemas } from './schemas';

/** The provider and variant of a row: its path's first segment (`/square/{merchant_id}/invoice` is square's invoice variant). */
export function providerOfRoute(route: RouteDef): { psp: Psp; variant: WebhookRouteVariant } {
  const [, first, , last] = route.path.split('/');
  if (first === undefined || !isPsp(first)) throw new InternalError(`Route ${route.path} names no provider`);
  return { psp: first, variant: last === 'invoice' ? 'invoice' : 'default' };
}

// Same message for both, so a caller cannot tell which merchants exist or what they configured.
const notFound = (): ResourceNotFoundError => new ResourceNotFoundError('No webhook endpoint is configured at this URL.');

/**
 * POST /{psp}/{merchant_id} (13 providers) and POST /square/{merchant_id}/invoice: verifies the
 * delivery with the provider's own scheme and the merchant's secret for it, over the body exactly
 * as received; stores it (30 days, erasable with its customer); enqueues it for the
 * inbound-webhooks consumer; answers 200 `{ received: true, id }`. An unknown merchant or a
 * provider without a secret is 404 (the same answer), a bad, missing or stale signature 401
 * `invalid_signature` with nothing stored; bodies over 256 KB are refused (400) before this runs.
 * Never logs bodies, headers or secrets.
 */
export const receiveProviderWebhook = defineOperation(receiveProviderWebhookSchemas, async ({ event, route, params, requestId }) => {
  const { psp, variant } = providerOfRoute(route);
  const merchantId = params.merchant_id;
  const log = logger.child({ request_id: requestId, merchant_id: merchantId, psp });
  const merchant = await getMerchantCached(merchantId);
  if (merchant === undefined) throw notFound();
  const secret = await getProviderSecret(merchantId, psp);
  if (secret === undefined) throw notFound();

  const headers = lowercasedHeaders(event);
  const request: InboundWebhook = { rawBody: rawBody(event) ?? Buffer.alloc(0), headers, url: publicUrlOf(event, headers) };
  const now = new Date();
  const verification = await webhookModuleFor(psp).verify(request, { secret: secret.secret }, now);
  if (!verification.ok) {
    log.info('provider webhook refused', { reason: verification.reason });
    throw new InvalidSignatureError('The webhook signature is missing, invalid or outside the allowed time window.');
  }

  const stored = await putWebhookLog({ merchantId, psp, routeVariant: variant, rawBody: request.rawBody, contentType: headers['content-type'] ?? null, url: request.url }, now);
  await queueSender.send('inbound-webhooks', { kind: PROVIDER_WEBHOOK_KIND, merchant_id: merchantId, psp, webhook_log_id: stored.id });
  log.info('provider webhook accepted', { webhook_log_id: stored.id, variant });
  return { body: { data: { received: true, id: stored.id }, meta: meta(requestId, merchantId, now) } };
});
