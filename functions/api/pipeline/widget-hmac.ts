import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { WidgetPrincipal } from '#api/operation';
import type { RouteDef } from '#api/route-types';
import { verifyWidgetRequest, type WidgetInitRequest } from '#services/widget';
import { parseRequest } from './parse-request';
import { limitWidgetInit } from './rate-limit';

/**
 * The `widget_hmac` authenticator: 30 requests a minute per client address first (API Gateway's
 * `requestContext.identity.sourceIp`; counted before anything else, so guessing signatures is
 * throttled too), then the body as the row's schema reads it (400/422 with `param`), then the
 * signature (services/widget.ts: fresh, genuine, accepted once; 401 otherwise).
 */
export async function authenticateWidget(event: APIGatewayProxyEvent, route: RouteDef, now: Date): Promise<WidgetPrincipal> {
  await limitWidgetInit(event.requestContext.identity.sourceIp, now);
  const body = parseRequest(event, route).body as WidgetInitRequest;
  await verifyWidgetRequest(body, now);
  return { kind: 'widget_hmac', merchantId: body.merchant_id, customerId: body.customer_id };
}
