import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InternalError, InvalidSignatureError, ResourceNotFoundError } from '../../core/errors';
import { isPsp, type Psp } from '../../core/providers';
import { queueSender } from '../../adapters/queue-sender';
import { getMerchantCached } from '../../data/merchant-repository';
import { getProviderSecret } from '../../data/provider-secret-repository';
import { PROVIDER_WEBHOOK_KIND, putWebhookLog, type WebhookRouteVariant } from '../../data/webhook-log-repository';
import { rawBody } from '../pipeline/parse-request';
import { lowercasedHeaders } from '../pipeline/headers';
import { publicUrlOf } from '../pipeline/request-url';
import { meta } from '../pipeline/responses';
import { logger } from '../../shared/logger';
import { webhookModuleFor } from '../../webhooks/registry';
import type { InboundWebhook } from '../../webhooks/types';
import { defineOperation, type SignedPrincipal } from '../operation';
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

/** A merchant id can only be this (`merch_` and base62; operator-made ids stay within it): anything else names no endpoint. */
const MERCHANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** What the signature check established: the merchant, its provider, and the delivery as received. */
export interface ProviderWebhookPrincipal extends SignedPrincipal {
  readonly merchantId: string;
  readonly psp: Psp;
  readonly variant: WebhookRouteVariant;
  readonly webhook: InboundWebhook;
}

/**
 * The provider_signature authenticator of these rows: the delivery is verified with the provider's
 * own scheme and the merchant's secret for it, over the body exactly as received. An unknown
 * merchant or a provider without a secret is 404 (the same answer), a bad, missing or stale
 * signature 401 `invalid_signature`. Never logs bodies, headers or secrets.
 */
export async function verifyProviderWebhook(event: APIGatewayProxyEvent, route: RouteDef): Promise<ProviderWebhookPrincipal> {
  const { psp, variant } = providerOfRoute(route);
  const merchantId = event.pathParameters?.merchant_id ?? '';
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
    throw new InvalidSignatureError('The webhook signature is missing, invalid or outside the allowed time window.');
  }
  return { kind: 'provider_signature', sender: psp, merchantId, psp, variant, webhook };
}

/**
 * POST /{psp}/{merchant_id} (13 providers) and POST /square/{merchant_id}/invoice, once the
 * pipeline has verified the delivery (`verifyProviderWebhook`): stores it (30 days, erasable with
 * its customer); enqueues it for the inbound-webhooks consumer; answers 200 `{ received: true, id }`.
 * Bodies over 256 KB are refused (400) before this runs.
 */
export const receiveProviderWebhook = defineOperation(
  { auth: 'provider_signature', schemas: receiveProviderWebhookSchemas, verify: verifyProviderWebhook },
  async ({ principal, requestId }) => {
    const { merchantId, psp, variant, webhook } = principal;
    const now = new Date();
    const stored = await putWebhookLog({ merchantId, psp, routeVariant: variant, rawBody: webhook.rawBody, contentType: webhook.headers['content-type'] ?? null, url: webhook.url }, now);
    await queueSender.send('inbound-webhooks', { kind: PROVIDER_WEBHOOK_KIND, merchant_id: merchantId, psp, webhook_log_id: stored.id });
    logger.info('provider webhook accepted', { request_id: requestId, merchant_id: merchantId, psp, webhook_log_id: stored.id, variant });
    return { body: { data: { received: true, id: stored.id }, meta: meta(requestId, merchantId, now) } };
  },
);
