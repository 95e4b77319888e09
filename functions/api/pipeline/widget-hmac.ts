import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { WidgetPrincipal } from '#api/operation';
import type { RouteDef } from '#api/route-types';
import { AppError } from '#core/errors';
import { verifyWidgetRequest, type WidgetInitRequest } from '#services/widget';
import { type Authenticators, notBuilt } from './authenticator';
import { headerOf } from './headers';
import { parseRequest } from './parse-request';
import { limitWidgetInit } from './rate-limit';

/**
 * The CORS headers of a widget init answer: any page may read it (the signature, not the page's
 * origin, is the credential, and no cookie is sent), so a merchant's pages on any of their domains
 * embed the widget, and a refusal (401, 422, 429) is readable there too, for the merchant's developers.
 */
export function widgetCorsHeaders(event: APIGatewayProxyEvent): Record<string, string> {
  const origin = headerOf(event, 'origin');
  return { Vary: 'Origin', ...(origin === undefined ? {} : { 'Access-Control-Allow-Origin': origin }) };
}

/**
 * The `widget_hmac` authenticator: 30 requests a minute per client address first (API Gateway's
 * `requestContext.identity.sourceIp`; counted before anything else, so guessing signatures is
 * throttled too), then the body as the row's schema reads it (400/422 with `param`), then the
 * signature (services/widget.ts: fresh, genuine, accepted once; 401 otherwise). Refusals carry the
 * CORS headers.
 */
export async function authenticateWidget(event: APIGatewayProxyEvent, route: RouteDef, now: Date): Promise<WidgetPrincipal> {
  try {
    await limitWidgetInit(event.requestContext.identity.sourceIp, now);
    const body = parseRequest(event, route).body as WidgetInitRequest;
    await verifyWidgetRequest(body, now);
    return { kind: 'widget_hmac', merchantId: body.merchant_id, customerId: body.customer_id };
  } catch (error) {
    // The error is rendered by the pipeline; its headers are the only way to add ours to that answer.
    if (error instanceof AppError) (error as { headers: Readonly<Record<string, string>> }).headers = { ...error.headers, ...widgetCorsHeaders(event) };
    throw error;
  }
}

/** `widget_hmac` (authenticateWidget). */
export const widgetHmacAuth = {
  widget_hmac: async ({ event, route, operation, now }) => {
    if (operation === undefined) throw notBuilt(route);
    return authenticateWidget(event, route, now);
  },
} as const satisfies Authenticators;
